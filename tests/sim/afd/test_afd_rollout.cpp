// AFD rollout pools in RL scenarios (rollout.afd): the iteration table is the layer-level AFD
// simulation at its grid points and interpolates between them, and an RL run's AFD instances
// decode at the table's pace.
#include <catch2/catch.hpp>

#include "sim/afd/afd_iteration_table.h"
#include "sim/afd/afd_simulation.h"
#include "sim/engine/simulation.h"
#include "tests/sim/sim_test_support.h"

using namespace rlsim;
using Catch::Matchers::WithinRel;

namespace {

// One AFD instance (1 H800 for attention, 1 H20 for the experts) serving 8 identical calls.
const char* kAfdRollout = R"(
name: afd-rollout-fixed
model: qwen3-30b-a3b
cluster:
  pools:
    - {name: attention, gpu: H800, nodes: 1, gpus_per_node: 1}
    - {name: ffn, gpu: H20, nodes: 1, gpus_per_node: 1}
    - {name: train, gpu: H800, nodes: 1, gpus_per_node: 8}
  nic: {bandwidth: 400Gbps, latency: 2us}
  links:
    - {between: [attention, ffn], bandwidth: 400Gbps, latency: 2us}
    - {between: [attention, train], bandwidth: 400Gbps, latency: 5us}
    - {between: [agents, attention], bandwidth: 100Gbps, latency: 10us}
    - {between: [dataplane, attention], bandwidth: 100Gbps, latency: 10us}
workload:
  steps: 1
  prompts_per_step: 1
  samples_per_prompt: 8
  prompt_tokens: 1024
  output_tokens: 256
rollout:
  pool: attention
  max_batch: 8
  prefix_cache: false
  engine: ideal  # kernels only: the test compares with the layer-level table itself
  afd: {ffn_pool: ffn, attention_gpus: 1, ffn_gpus: 1, micro_batches: 2}
training: {pool: train, offload_optimizer: true}
)";

}  // namespace

TEST_CASE(
    "the AFD iteration table holds the layer-level simulation at its grid points and interpolates between "
    "them") {
  const Scenario s = test::load_inline("afd-rollout", kAfdRollout).scenario;
  const AfdIterationTable table = AfdIterationTable::build(s, 2);
  REQUIRE(table.batches() == std::vector<int64_t>{1, 2, 4, 8});
  REQUIRE(table.contexts().size() == 4);
  // A grid point is exactly what simulate_afd gives for that shape.
  const test::Figures point = test::figures_in_child([&]() {
    test::Figures out;
    out.set("tpot_s", simulate_afd(afd_point_scenario(s, 4, 1024)).metrics.tpot_s);
    return out;
  });
  const double direct = point.at("tpot_s");
  CHECK(table.at(2, 1) == direct);
  CHECK(table.seconds(4, 1024) == direct);
  // Longer contexts and bigger batches take longer; between points the table interpolates.
  for (size_t b = 0; b < table.batches().size(); ++b) {
    for (size_t c = 1; c < table.contexts().size(); ++c) CHECK(table.at(b, c) > table.at(b, c - 1));
  }
  CHECK(table.at(3, 2) > table.at(0, 2));
  const double between = table.seconds(6, 4608);  // halfway in batch (4..8) and in context (1K..8K: 4608)
  const double corners = (table.at(2, 1) + table.at(2, 2) + table.at(3, 1) + table.at(3, 2)) / 4.0;
  CHECK_THAT(between, WithinRel(corners, 1e-12));
}

TEST_CASE("an RL run's AFD instances decode at the iteration time the layer-level simulation gives") {
  const Scenario s = test::load_inline("afd-rollout", kAfdRollout).scenario;
  const AfdIterationTable table = AfdIterationTable::build(s, 2);
  const test::Figures figures = test::figures_in_child([&]() {
    const SimulationResult r = simulate(s);
    test::Figures out;
    out.set("tpot_p50_s", r.metrics.tpot_s.p50);
    out.set("ffn_busy", r.metrics.pools.at("ffn").busy_fraction);
    out.set("attention_busy", r.metrics.pools.at("attention").busy_fraction);
    return out;
  });
  const double tpot = figures.at("tpot_p50_s"), ffn_busy = figures.at("ffn_busy"),
               attention_busy = figures.at("attention_busy");
  // All 8 calls decode together: context grows from 1025 to 1280 tokens, mean about 1152.
  CHECK_THAT(tpot, WithinRel(table.seconds(8, 1152), 0.01));
  // The FFN GPU is part of the instance: busy exactly when the attention GPU is.
  CHECK(ffn_busy > 0.0);
  CHECK_THAT(ffn_busy, WithinRel(attention_busy, 1e-9));
}

TEST_CASE("rollout.afd.ffn_tp reaches the instance's simulation and must make whole groups in a node") {
  std::string two_ffn_gpus = kAfdRollout;
  two_ffn_gpus.replace(two_ffn_gpus.find("{name: ffn, gpu: H20, nodes: 1, gpus_per_node: 1}"), 49,
                       "{name: ffn, gpu: H20, nodes: 1, gpus_per_node: 2}");
  two_ffn_gpus.replace(two_ffn_gpus.find("ffn_gpus: 1"), 11, "ffn_gpus: 2");
  const Scenario s = test::load_inline("afd-rollout-tp", two_ffn_gpus, {"rollout.afd.ffn_tp=2"}).scenario;
  REQUIRE(s.rollout.afd.has_value());
  CHECK(s.rollout.afd->ffn_tp == 2);
  CHECK(afd_point_scenario(s, 8, 1024).afd.ffn_tp == 2);
  CHECK(test::load_inline("afd-rollout-tp", two_ffn_gpus).scenario.rollout.afd->ffn_tp == 1);
  CHECK_THROWS_WITH(test::load_inline("afd-rollout-tp", kAfdRollout, {"rollout.afd.ffn_tp=2"}),
                    Catch::Contains("ffn_tp") && Catch::Contains("from 1 to 1"));
}
