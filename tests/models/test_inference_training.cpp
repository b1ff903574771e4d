// Engine-facing inference and training costs: limits they must approach and how they scale.
#include <catch2/catch.hpp>

#include "models/cost/roofline_cost_model.h"
#include "models/timing/decode_iteration_time.h"
#include "models/timing/inference_time.h"
#include "models/timing/training_time.h"
#include "tests/models/reference_specs.h"

using namespace rlsim;
using Catch::Matchers::WithinRel;

TEST_CASE("batch-1 decode is bound by reading the weights once", "[inference]") {
  const ModelArch m = test::llama2_7b();
  const HardwareSpec card = test::h100();
  RooflineCostModel cost;
  const RooflineEfficiency e;
  const double t = decode_iteration_seconds(m, card, cost, 1, 128, 1, Precision::bf16, Precision::bf16);
  const double stream =
      (weight_bytes(m, Precision::bf16) - 2 * embedding_params(m)) / (card.mem_bw_bytes_per_s * e.bandwidth);
  CHECK(t > stream);
  CHECK(t < stream * 1.1 + 400 * e.launch_overhead_s);
}

TEST_CASE("decode time grows with batch and context and shrinks with TP", "[inference]") {
  const ModelArch m = test::qwen3_235b();
  const HardwareSpec card = test::h20();
  RooflineCostModel cost;
  auto t = [&](int64_t batch, double context, int tp) {
    return decode_iteration_seconds(m, card, cost, batch, context, tp, Precision::fp8, Precision::fp8);
  };
  CHECK(t(64, 4096, 8) > t(8, 4096, 8));
  CHECK(t(64, 32768, 8) > t(64, 4096, 8));
  CHECK(t(64, 4096, 8) < t(64, 4096, 4));
  CHECK(t(1, 0, 1) > 0.0);
}

TEST_CASE("memoised decode iteration time equals the direct one for dense, GQA, MoE and MLA models",
          "[inference]") {
  RooflineCostModel cost;
  struct Case {
    ModelArch model;
    HardwareSpec card;
    int tp;
    Precision kv;
  };
  const std::vector<Case> cases{{test::llama2_7b(), test::h100(), 1, Precision::bf16},
                                {test::qwen3_235b(), test::h20(), 8, Precision::fp8},
                                {test::deepseek_v3(), test::h800(), 8, Precision::bf16},
                                {test::step3(), test::h20(), 4, Precision::fp8}};
  for (const Case& c : cases) {
    DecodeIterationTime memo(c.model, c.card, cost, c.tp, Precision::bf16, c.kv);
    // Out of order, and each twice, so cached batches are read back as well as filled.
    for (int pass = 0; pass < 2; ++pass) {
      for (int64_t batch : {64, 1, 7, 256}) {
        for (double context : {0.0, 0.4, 1.0, 517.5, 4096.0, 65536.0}) {
          INFO(c.model.name << " batch " << batch << " context " << context);
          const double direct =
              decode_iteration_seconds(c.model, c.card, cost, batch, context, c.tp, Precision::bf16, c.kv);
          CHECK_THAT(memo.seconds(batch, context), WithinRel(direct, 1e-12));
        }
      }
    }
  }
}

TEST_CASE("long prefill is compute-bound at about 2 FLOPs per parameter per token", "[inference]") {
  const ModelArch m = test::llama2_7b();
  const HardwareSpec card = test::h100();
  RooflineCostModel cost;
  const int64_t tokens = 8192;
  const double t = prefill_seconds(m, card, cost, tokens, 0, 1, Precision::bf16);
  const double linear = 2.0 * (total_params(m) - 2 * embedding_params(m)) * tokens;
  // Causal attention: 2 (QK, SV) × 2 FLOPs × tokens²/2 × heads × dim per layer.
  const double attention = 32 * 2.0 * 2 * 32 * 128 * tokens * (tokens + 1) / 2.0;
  const double ideal = (linear + attention) / (989e12 * 0.75);
  CHECK(t > ideal);
  CHECK(t < ideal * 1.3);
  // A second chunk on top of the first costs more (it attends to the cached context too).
  CHECK(prefill_seconds(m, card, cost, tokens, tokens, 1, Precision::bf16) > t);
}

TEST_CASE("TP all-reduces two hidden states per layer per token", "[inference]") {
  const ModelArch m = test::llama2_7b();
  CHECK(tp_allreduce_bytes_per_token(m, Precision::bf16) == 2.0 * 32 * 4096 * 2);
  CHECK(tp_allreduces_per_forward(m) == 64);
}

TEST_CASE("training: backward is twice forward, recomputation adds a forward", "[training]") {
  const ModelArch m = test::llama2_7b();
  const HardwareSpec card = test::h100();
  RooflineCostModel cost;
  TrainingOptions plain;
  plain.tp_link = LinkSpec{450e9, 1e-6};
  const TrainingStepTime step = training_step_time(m, card, cost, 1 << 20, 8, 2, 2, plain);
  CHECK_THAT(step.backward_s, WithinRel(2 * step.forward_s, 1e-12));
  TrainingOptions recompute = plain;
  recompute.recompute = Recompute::full;
  const TrainingStepTime again = training_step_time(m, card, cost, 1 << 20, 8, 2, 2, recompute);
  CHECK_THAT(again.backward_s, WithinRel(3 * again.forward_s, 1e-12));
  // Selective recompute redoes only the attention core: more than nothing, less than a forward.
  recompute.recompute = Recompute::selective;
  const TrainingStepTime selective = training_step_time(m, card, cost, 1 << 20, 8, 2, 2, recompute);
  CHECK(selective.recompute_s > 0.0);
  CHECK(selective.recompute_s < 0.5 * selective.forward_s);
  CHECK_THAT(selective.backward_s, WithinRel(2 * selective.forward_s + selective.recompute_s, 1e-12));
  CHECK(step.tokens_per_gpu == (1 << 20) / 8);
  CHECK_THAT(step.params_per_gpu, WithinRel(total_params(m) / 4, 1e-12));
  CHECK_THAT(step.gradient_bytes, WithinRel(total_params(m) / 4 * 2, 1e-12));
  CHECK_THAT(step.optimizer_s, WithinRel(step.params_per_gpu * 28 / (3.35e12 * 0.85) + 4e-6, 1e-9));
  // Forward FLOPs of one DP rank's 131072 tokens ≈ 2 × params × tokens, shared by TP × PP.
  const double ideal = 2.0 * total_params(m) * step.tokens_per_gpu / 4 / (989e12 * 0.75);
  CHECK(step.forward_s > ideal * 0.9);
  CHECK(step.forward_s < ideal * 1.5);
  CHECK(step.tp_allreduce_bytes > 0.0);
}

TEST_CASE("training: TP all-reduces two messages per layer and micro-batch each way", "[training]") {
  // Llama-2-7B (32 layers, hidden 4096), 8 DP ranks × TP 2 × PP 2, 2^20 tokens in sequences of
  // 4096: each rank has 32 sequences, each stage 16 layers, so a forward all-reduces 2 × 16 × 32
  // messages of 4096 × 4096 × 2 bytes.
  const ModelArch m = test::llama2_7b();
  RooflineCostModel cost;
  TrainingOptions options;
  options.tp_link = LinkSpec{450e9, 1e-6};
  const TrainingStepTime step = training_step_time(m, test::h100(), cost, 1 << 20, 8, 2, 2, options);
  const double message = 4096.0 * 4096 * 2;
  const double one = 2 * (2 - 1) * 1e-6 + 2.0 * (2 - 1) / 2 * message / 450e9;
  CHECK_THAT(step.tp_forward_s, WithinRel(2 * 16 * 32 * one, 1e-9));
  CHECK_THAT(step.tp_backward_s, WithinRel(step.tp_forward_s, 1e-12));
  CHECK_THAT(step.training_pass_s(),
             WithinRel(step.forward_s + step.backward_s + step.tp_forward_s + step.tp_backward_s, 1e-12));
  CHECK_THAT(step.forward_pass_s(), WithinRel(step.forward_s + step.tp_forward_s, 1e-12));
  // A full recompute redoes the forward's all-reduces in backward.
  options.recompute = Recompute::full;
  const TrainingStepTime full = training_step_time(m, test::h100(), cost, 1 << 20, 8, 2, 2, options);
  CHECK_THAT(full.tp_backward_s, WithinRel(2 * full.tp_forward_s, 1e-12));
  // A measured fit replaces the ring: alpha + bytes / bandwidth per message at its group size.
  const CollectiveFit fit{.collective = Collective::all_reduce,
                          .gpus = 2,
                          .gpus_per_node = 2,
                          .alpha_s = 20e-6,
                          .bandwidth_bytes_per_s = 100e9,
                          .min_bytes = 1024,
                          .max_bytes = 1e9,
                          .error = {}};
  options.recompute = Recompute::none;
  options.tp_allreduce_fit = &fit;
  const TrainingStepTime measured = training_step_time(m, test::h100(), cost, 1 << 20, 8, 2, 2, options);
  CHECK_THAT(measured.tp_forward_s, WithinRel(2 * 16 * 32 * collective_seconds(fit, 2, message), 1e-9));
  CHECK(measured.tp_forward_s > step.tp_forward_s);
}

TEST_CASE("training without data parallelism all-reduces no gradients", "[training]") {
  RooflineCostModel cost;
  const TrainingStepTime step = training_step_time(test::llama2_7b(), test::h100(), cost, 65536, 1, 1, 1);
  CHECK(step.gradient_bytes == 0.0);
  CHECK(step.tp_allreduce_bytes == 0.0);
  CHECK(step.tp_forward_s == 0.0);
  CHECK(step.tp_backward_s == 0.0);
  CHECK(step.compute_seconds() == step.forward_s + step.backward_s + step.optimizer_s);
}

TEST_CASE("training: ZeRO-3 all-gathers the weights twice, 1F1B's bubble is (pp - 1) / m", "[training]") {
  const ModelArch m = test::llama2_7b();
  RooflineCostModel cost;
  TrainingOptions options;
  options.sequence_length = 4096;
  const TrainingStepTime zero1 = training_step_time(m, test::h100(), cost, 8 * 4096 * 16, 8, 1, 4, options);
  CHECK(zero1.weight_gather_bytes == 0.0);
  CHECK_THAT(zero1.dp_ring_bytes(8), WithinRel(2.0 * 7 / 8 * zero1.gradient_bytes, 1e-12));
  // 16 sequences of 4096 per DP rank in one mini-batch: 16 micro-batches, bubble 3/16.
  CHECK_THAT(zero1.pipeline_bubble_fraction, WithinRel(3.0 / 16, 1e-12));
  options.sharding = Sharding::zero3;
  options.mini_batches = 4;
  const TrainingStepTime zero3 = training_step_time(m, test::h100(), cost, 8 * 4096 * 16, 8, 1, 4, options);
  CHECK_THAT(zero3.weight_gather_bytes, WithinRel(2.0 * zero3.params_per_gpu * 2, 1e-12));
  CHECK_THAT(zero3.dp_ring_bytes(8), WithinRel(1.5 * zero1.dp_ring_bytes(8), 1e-12));
  CHECK_THAT(zero3.pipeline_bubble_fraction, WithinRel(3.0 / 4, 1e-12));
  CHECK(zero3.dp_ring_bytes(1) == 0.0);
}
