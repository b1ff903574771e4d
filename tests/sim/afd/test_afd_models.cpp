// The analytical ping-pong model and the split of a layer's ops between the AFD sides.
#include <catch2/catch.hpp>
#include <cmath>

#include "models/afd/afd_pipeline.h"
#include "models/afd/afd_stages.h"
#include "models/cost/roofline_cost_model.h"
#include "sim/scenario/catalog.h"

using namespace rlsim;

TEST_CASE("ping-pong estimate follows MegaScale-Infer's formulas") {
  PingPongStages s{1e-3, 2e-3, 0.5e-3, 3, 10};
  PingPongEstimate e = ping_pong_estimate(s);
  CHECK(e.slower_stage_s == Approx(2e-3));
  CHECK(e.min_micro_batches == Approx(2.0 * (1.0 + 0.25)));
  CHECK(e.pipeline_full);
  // (T_a + T_e + 2T_c) + T_f (mL − 1)
  CHECK(e.iteration_s == Approx(4e-3 + 2e-3 * (3 * 10 - 1)));
  CHECK(e.stage_utilisation == Approx(3 * 10 * 2e-3 / e.iteration_s));

  SECTION("one micro-batch: no overlap, every layer is a round trip") {
    s.micro_batches = 1;
    e = ping_pong_estimate(s);
    CHECK_FALSE(e.pipeline_full);
    CHECK(e.iteration_s == Approx(10 * 4e-3));
  }
  SECTION("too few micro-batches to hide the round trip: each layer waits for it") {
    s.transfer_s = 3e-3;  // r = 9 ms > m T_f = 6 ms
    e = ping_pong_estimate(s);
    CHECK_FALSE(e.pipeline_full);
    CHECK(e.iteration_s == Approx(9e-3 + 9 * 9e-3 + 2 * 2e-3));
    CHECK(e.iteration_s > 9e-3 + 2e-3 * 29);  // slower than the full-pipeline formula
  }
}

TEST_CASE("the AFD sides together run exactly the layer's ops") {
  const Catalog catalog = load_builtin_catalog(RLSIM_TEST_SOURCE_DIR);
  const RooflineCostModel cost;
  const HardwareSpec& card = catalog.hardware.at("H800");
  const AfdPrecisions precisions;
  for (const char* name : {"step3", "deepseek-v3", "qwen3-235b-a22b"}) {
    const ModelArch& arch = catalog.models.at(name);
    for (int layer : {0, arch.layers - 2}) {
      ForwardPass pass;
      pass.sequences = 96;
      pass.context_before = 4096;
      pass.weights = precisions.weights;
      pass.kv = precisions.kv;
      double whole = 0.0;
      for (const Op& op : layer_ops(arch, layer, pass)) whole += cost.seconds(op, card);
      const double split = afd_attention_seconds(arch, card, cost, layer, 96, 4096, precisions, false) +
                           afd_ffn_seconds(arch, card, cost, layer, 96, 1, 1, precisions);
      INFO(name << " layer " << layer);
      CHECK(split == Approx(whole).epsilon(1e-12));
    }
  }
}

TEST_CASE("AFD side of ops, routing to FFN nodes, weights per GPU") {
  const Catalog catalog = load_builtin_catalog(RLSIM_TEST_SOURCE_DIR);
  const ModelArch& step3 = catalog.models.at("step3");
  CHECK(afd_side(make_gemm("router", 1, 1, 1)) == AfdSide::attention);
  CHECK(afd_side(make_gemm("expert_up", 1, 1, 1)) == AfdSide::ffn);
  CHECK(afd_side(make_gemm("shared_down", 1, 1, 1)) == AfdSide::ffn);
  CHECK(afd_side(make_gemm("o_proj", 1, 1, 1)) == AfdSide::attention);
  // 48 experts top-3, a node holding half of them: 1 − C(24,3)/C(48,3).
  CHECK(afd_node_hit_probability(step3, 10, 8, 16) == Approx(1.0 - (24.0 * 23 * 22) / (48.0 * 47 * 46)));
  CHECK(afd_node_hit_probability(step3, 0, 8, 16) == Approx(0.5));  // dense layer: tokens split over GPUs
  CHECK(afd_node_hit_probability(step3, 10, 16, 16) == Approx(1.0));
  // Experts spread over more GPUs take fewer bytes each; attention weights do not depend on it.
  CHECK(afd_ffn_weight_bytes(step3, 32, 1, Precision::fp8) <
        afd_ffn_weight_bytes(step3, 16, 1, Precision::fp8));
  CHECK(afd_attention_weight_bytes(step3, Precision::fp8) ==
        Approx(afd_attention_weight_bytes(step3, Precision::bf16) / 2));
  CHECK(afd_token_bytes(step3, Precision::bf16) == 2.0 * 7168);
}

TEST_CASE(
    "hybrid EP + TP experts: the same FLOPs as plain EP, shards of every expert, whole groups in a node") {
  const Catalog catalog = load_builtin_catalog(RLSIM_TEST_SOURCE_DIR);
  const ModelArch& step3 = catalog.models.at("step3");
  auto expert_flops = [&](int ep, int expert_tp) {
    ForwardPass pass;
    pass.sequences = 2048;
    pass.ep = ep;
    pass.expert_tp = expert_tp;
    double flops = 0.0;
    for (const Op& op : layer_ops(step3, 10, pass)) {
      if (op.name.rfind("expert_", 0) == 0) flops += op.flops;
    }
    return flops;
  };
  // 16 GPUs as EP 16, or as 2 groups of 8 each sharding its 24 experts 8 ways: per GPU the same work.
  CHECK(expert_flops(2, 8) == Approx(expert_flops(16, 1)).epsilon(1e-9));
  CHECK(expert_flops(2, 1) == Approx(8.0 * expert_flops(16, 1)).epsilon(1e-9));
  // Routed experts cost each GPU the same bytes either way; shared experts and dense layers are
  // sharded over the group instead of copied whole.
  const double plain = afd_ffn_weight_bytes(step3, 16, 1, Precision::fp8);
  const double hybrid = afd_ffn_weight_bytes(step3, 16, 8, Precision::fp8);
  const double copied = afd_ffn_weight_bytes(step3, 1 << 30, 1, Precision::fp8);  // ≈ shared + dense only
  CHECK(plain - hybrid == Approx(copied * 7.0 / 8.0).epsilon(1e-3));
  // A group works on the tokens routed to at least one of its 24 experts.
  CHECK(afd_group_tokens(step3, 10, 2048, 8, 16) ==
        Approx(2048.0 * (1.0 - (24.0 * 23 * 22) / (48.0 * 47 * 46))));
  CHECK(afd_group_tokens(step3, 0, 2048, 8, 16) == Approx(1024.0));  // dense layer: its half of the tokens
  CHECK(afd_ffn_group_problem(8, 16, 0, 8).empty());
  CHECK(afd_ffn_group_problem(1, 5, 3, 8).empty());
  CHECK_THAT(afd_ffn_group_problem(3, 16, 0, 8), Catch::Contains("does not divide the 16 FFN GPUs"));
  CHECK_THAT(afd_ffn_group_problem(4, 8, 0, 6), Catch::Contains("must sit in one node of 6 GPUs"));
  CHECK_THAT(afd_ffn_group_problem(8, 8, 4, 8), Catch::Contains("starts at GPU 4"));
}
