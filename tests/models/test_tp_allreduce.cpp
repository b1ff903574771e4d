// The TP all-reduce pricing: an engine's measured table interpolated between its sizes, and the
// choice of source: the engine's own in CUDA graphs or eagerly, NCCL as measured, else the ring.
#include <catch2/catch.hpp>

#include "models/arch_params.h"
#include "models/timing/tp_allreduce.h"
#include "tests/models/reference_specs.h"

namespace rlsim {
namespace {

EngineAllReduce table(const std::string& engine, int gpus, bool graph) {
  EngineAllReduce t;
  t.engine = engine;
  t.gpus = gpus;
  t.cuda_graph = graph;
  t.bytes = {1000.0, 2000.0, 4000.0};
  t.seconds = {4e-6, 6e-6, 7e-6};
  return t;
}

TEST_CASE("an engine all-reduce table interpolates between sizes and scales past the largest", "[models]") {
  const EngineAllReduce t = table("vllm-v1", 4, true);
  CHECK(t.seconds_at(500.0) == 4e-6);  // below the table: the smallest size's time
  CHECK(t.seconds_at(1000.0) == 4e-6);
  CHECK(t.seconds_at(1500.0) == Approx(5e-6).epsilon(1e-12));
  CHECK(t.seconds_at(2000.0) == Approx(6e-6).epsilon(1e-12));
  CHECK(t.seconds_at(3000.0) == Approx(6.5e-6).epsilon(1e-12));
  CHECK(t.seconds_at(4000.0) == Approx(7e-6).epsilon(1e-12));
  CHECK(t.seconds_at(8000.0) == Approx(14e-6).epsilon(1e-12));  // bandwidth-bound beyond it
}

TEST_CASE("the TP all-reduce is priced by the engine's own table, else NCCL, else the ring", "[models]") {
  const ModelArch model = test::llama2_7b();  // 32 layers: 64 all-reduces of 8192 B a token
  HardwareProfile profile;
  profile.card = "H100";
  CollectiveFit nccl;
  nccl.gpus = nccl.gpus_per_node = 4;
  nccl.alpha_s = 30e-6;
  nccl.bandwidth_bytes_per_s = 200e9;
  profile.collectives = {nccl};
  profile.engine_allreduces = {table("vllm-v1", 4, true), table("vllm-v1", 2, false)};
  const LinkSpec ring{100e9, 1e-6};

  const TpAllReduce vllm = tp_allreduce_pricing(&profile, "H100", "vllm-v1", 4, ring);
  REQUIRE(vllm.graph);
  CHECK_FALSE(vllm.eager);  // measured eagerly only at 2 GPUs
  REQUIRE(vllm.nccl);
  // One token: 64 all-reduces of 8192 B each, past the table's largest size, so scaled by size.
  CHECK(vllm.forward_seconds(model, 1.0, 4, true) == Approx(64 * 7e-6 * 8192.0 / 4000.0).epsilon(1e-12));
  CHECK(vllm.forward_seconds(model, 1.0, 4, false) == Approx(64 * (30e-6 + 8192.0 / 200e9)).epsilon(1e-12));
  CHECK(vllm.forward_seconds(model, 1.0, 1, true) == 0.0);
  CHECK(vllm.source(4, true) == "the engine's own all-reduce, measured in CUDA graphs (profile)");
  CHECK(vllm.source(4, false) == "NCCL, the profile's measured alpha-beta");

  // Another engine, or a profile of another card, has no table of its own.
  CHECK_FALSE(tp_allreduce_pricing(&profile, "H100", "sglang", 4, ring).graph);
  const TpAllReduce other_card = tp_allreduce_pricing(&profile, "A100", "vllm-v1", 4, ring);
  CHECK_FALSE(other_card.graph);
  CHECK_FALSE(other_card.nccl);
  CHECK(other_card.forward_seconds(model, 1.0, 4, true) ==
        Approx(64 * all_reduce_seconds(8192.0, 4, ring)).epsilon(1e-12));
  CHECK(other_card.source(4, true) == "ring over the scale-up link");
}

}  // namespace
}  // namespace rlsim
