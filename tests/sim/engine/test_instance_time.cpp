// InstanceTime and DecodeStretch against hand-computed values: the TP all-reduce (alpha-beta ring),
// the KV swap over the host link, the model's decode and prefill plus the all-reduce, and the
// inversion of an interrupted decode stretch.
#include <catch2/catch.hpp>
#include <memory>

#include "models/cost/roofline_cost_model.h"
#include "models/timing/inference_time.h"
#include "sim/engine/instance_time.h"
#include "tests/models/reference_specs.h"

using namespace rlsim;
using Catch::Matchers::WithinRel;

namespace {

struct Llama2OnH100 {
  ModelArch model = test::llama2_7b();
  HardwareSpec card = test::h100();
  RooflineCostModel cost;
  InstanceConfig config;

  explicit Llama2OnH100(int tp) {
    config.model = &model;
    config.card = &card;
    config.cost = &cost;
    config.tp = tp;
    config.swap_bytes_per_s = 25e9;
    config.tp_allreduce.link = {100e9, 1e-6};
    config.decode_cost =
        std::make_shared<const DecodeIterationTime>(model, card, cost, tp, Precision::bf16, Precision::bf16);
  }
};

}  // namespace

TEST_CASE("instance time: TP all-reduce is two ring all-reduces per layer, none without TP") {
  // Llama-2-7B: 32 layers, hidden 4096, bf16: 2 × 32 × 4096 × 2 B = 524288 B a token in 64
  // all-reduces. 100 tokens on TP 2: each all-reduce moves 819200 B, ring 2(p−1)α + 2(p−1)/p · n/β
  // = 2 µs + 8.192 µs; 64 of them: 652.288 µs.
  CHECK(InstanceTime(Llama2OnH100(2).config).tp_allreduce_s(100.0, true) ==
        Approx(652.288e-6).epsilon(1e-12));
  CHECK(InstanceTime(Llama2OnH100(1).config).tp_allreduce_s(100.0, true) == 0.0);
}

TEST_CASE("instance time: the engine's own all-reduce prices graph iterations, NCCL the eager ones") {
  Llama2OnH100 on(2);
  // 64 all-reduces of 8192 B a token; 4 tokens: 32768 B each, between the table's sizes.
  EngineAllReduce own;
  own.engine = "vllm-v1";
  own.gpus = 2;
  own.bytes = {16384.0, 65536.0};
  own.seconds = {4e-6, 7e-6};
  on.config.tp_allreduce.graph = own;
  CollectiveFit nccl;
  nccl.gpus = nccl.gpus_per_node = 2;
  nccl.alpha_s = 20e-6;
  nccl.bandwidth_bytes_per_s = 100e9;
  on.config.tp_allreduce.nccl = nccl;
  on.config.engine.graph_max_tokens = 512;
  const InstanceTime time(on.config);
  // In a graph: 5 µs each (a third of the way from 16 to 64 KiB); eager: 20 µs + 32768 B / 100 GB/s.
  CHECK(time.tp_allreduce_s(4.0, true) == Approx(64 * 5e-6).epsilon(1e-12));
  CHECK(time.tp_allreduce_s(4.0, false) == Approx(64 * (20e-6 + 32768.0 / 100e9)).epsilon(1e-12));
  // A decode iteration of 4 sequences replays a graph, so its all-reduces are the engine's.
  CHECK(time.terms(ForwardBatch{4, 100.0, {}}).allreduce_s == Approx(64 * 5e-6).epsilon(1e-12));
  on.config.engine.graph_max_tokens = 0;  // never a graph: NCCL
  CHECK(InstanceTime(on.config).terms(ForwardBatch{4, 100.0, {}}).allreduce_s ==
        Approx(64 * (20e-6 + 32768.0 / 100e9)).epsilon(1e-12));
}

TEST_CASE("instance time: KV swap moves each GPU's share over its host link") {
  // Llama-2-7B KV, bf16: 2 (K, V) × 32 layers × 32 heads × 128 × 2 B = 524288 B a token. 1000
  // tokens over 2 GPUs at 25 GB/s each: 524288000 / 2 / 25e9 = 10.48576 ms.
  CHECK(InstanceTime(Llama2OnH100(2).config).kv_swap_s(1000.0) == Approx(10.48576e-3).epsilon(1e-12));
  CHECK(InstanceTime(Llama2OnH100(2).config).kv_swap_s(0.0) == 0.0);
}

TEST_CASE("instance time: decode and prefill are the model's time plus the TP all-reduce") {
  const Llama2OnH100 tp2(2);
  const InstanceTime time(tp2.config);
  const double decode = tp2.config.decode_cost->seconds(8, 1000.0);
  CHECK(decode > 0.0);
  // 8 tokens: 64 × (2 µs + 8 × 524288 / 64 / 1e11 s) = 64 × 2.65536 µs.
  CHECK(time.iteration_s(8.0, 1000.0) - decode == Approx(64 * 2.65536e-6).epsilon(1e-9));
  const double prefill = prefill_seconds(tp2.model, tp2.card, tp2.cost, 100, 400, 2, Precision::bf16);
  CHECK(time.prefill_s(100.0, 400.0) - prefill == Approx(652.288e-6).epsilon(1e-9));
  const Llama2OnH100 tp1(1);
  CHECK(InstanceTime(tp1.config).iteration_s(8.0, 1000.0) == tp1.config.decode_cost->seconds(8, 1000.0));
}

TEST_CASE("decode stretch: iteration times grow linearly and sum to the stretch's total") {
  // First iteration 1 s, mean 1.5 s over 3: 1, 1.5, 2 s (step 0.5), done at 1, 2.5 and 4.5 s.
  const DecodeStretch stretch{3, 1.5, 1.0};
  CHECK(stretch.total_s() == 4.5);
  CHECK(stretch.time_s(1) == 1.0);
  CHECK(stretch.time_s(2) == 2.5);
  CHECK(stretch.time_s(3) == 4.5);
}

TEST_CASE("decode stretch: an interruption finishes the iteration under way") {
  const DecodeStretch stretch{3, 1.5, 1.0};
  const auto mid_second = stretch.progress(1.2);  // in the second iteration (1 to 2.5 s)
  CHECK(mid_second.iterations == 2);
  CHECK(mid_second.rest_s == Approx(1.3));
  const auto at_boundary = stretch.progress(2.5);  // exactly when the second one ends
  CHECK(at_boundary.iterations == 2);
  CHECK(at_boundary.rest_s == Approx(0.0).margin(1e-12));
  const auto at_start = stretch.progress(0.0);  // at least one iteration is done
  CHECK(at_start.iterations == 1);
  CHECK(at_start.rest_s == 1.0);
  const auto in_last = stretch.progress(4.0);
  CHECK(in_last.iterations == 3);
  CHECK(in_last.rest_s == Approx(0.5));
}

TEST_CASE("decode stretch: uniform iterations divide evenly") {
  const DecodeStretch stretch{4, 2.0, 2.0};  // 2 s each: ends at 2, 4, 6, 8 s
  const auto progress = stretch.progress(3.0);
  CHECK(progress.iterations == 2);
  CHECK(progress.rest_s == 1.0);
  const DecodeStretch single{1, 0.7, 0.7};
  CHECK(single.progress(0.3).iterations == 1);
  CHECK(single.progress(0.3).rest_s == Approx(0.4));
}

TEST_CASE("instance time: a pipelined round is the heaviest micro-batch's pass plus the stage sends") {
  Llama2OnH100 piped(1);
  piped.config.pp = 4;
  piped.config.stage_link = LinkSpec{50e9, 5e-6};
  const InstanceTime stages(piped.config);
  const Llama2OnH100 whole(1);
  const InstanceTime unpiped(whole.config);
  const double sends_of_16 = 3 * (5e-6 + 16 * 8192.0 / 50e9) + 5e-6;
  // 64 decoding sequences: four micro-batches of 16; a round costs one of 16 through all layers.
  CHECK_THAT(stages.iteration_s(64, 1000.0), WithinRel(unpiped.iteration_s(16, 1000.0) + sends_of_16, 1e-12));
  CHECK(stages.terms(ForwardBatch{64, 1000.0, {}}).pipeline_s == Approx(sends_of_16).epsilon(1e-12));
  // Fewer sequences than stages: a round of 2 costs what a round of 1 does (the bubble).
  CHECK(stages.iteration_s(2, 1000.0) == stages.iteration_s(1, 1000.0));
  // A lone prompt is not pipelined: its prefill passes every stage, then the sends.
  const double sends_of_prompt = 3 * (5e-6 + 2048 * 8192.0 / 50e9) + 5e-6;
  CHECK_THAT(stages.prefill_s(2048, 0), WithinRel(unpiped.prefill_s(2048, 0) + sends_of_prompt, 1e-12));
  // KV swaps: each GPU moves its stage's share of the layers' KV (8 of 32 layers).
  CHECK_THAT(stages.kv_swap_s(1000.0), WithinRel(unpiped.kv_swap_s(1000.0) / 4.0, 1e-12));
}

TEST_CASE("instance time: a full pipeline moves at the pace of its largest stage or of its CPU") {
  // 32 layers in 3 stages of 11, 11 and 10: three filled micro-batches each cross an 11-layer stage,
  // 3 × 11/32 = 1.03125 of one micro-batch's pass, longer than its trip and sends.
  Llama2OnH100 piped(1);
  piped.config.pp = 3;
  piped.config.stage_link = LinkSpec{50e9, 5e-6};
  const Llama2OnH100 whole(1);
  const double pass_of_22 = InstanceTime(whole.config).iteration_s(22, 1000.0);
  CHECK_THAT(InstanceTime(piped.config).iteration_s(64, 1000.0), WithinRel(1.03125 * pass_of_22, 1e-12));
  // Scheduling each micro-batch on the CPU for 10 ms: four of them take 40 ms a round.
  Llama2OnH100 busy_cpu(1);
  busy_cpu.config.pp = 4;
  busy_cpu.config.stage_link = LinkSpec{50e9, 5e-6};
  busy_cpu.config.engine.cpu_fixed_s = 0.010;
  CHECK_THAT(InstanceTime(busy_cpu.config).iteration_s(64, 1000.0), WithinRel(0.040, 1e-12));
}

TEST_CASE("instance time: an engine that overlaps CPU with GPU still waits for the stage sends") {
  // One sequence, CPU (20 ms) longer than the pass: the round is the CPU's time plus the sends,
  // which the overlap cannot hide (they follow the pass).
  Llama2OnH100 piped(1);
  piped.config.pp = 2;
  piped.config.stage_link = LinkSpec{50e9, 5e-6};
  piped.config.engine.cpu_fixed_s = 0.020;
  piped.config.engine.overlap_cpu = true;
  const double sends = (5e-6 + 8192.0 / 50e9) + 5e-6;
  CHECK_THAT(InstanceTime(piped.config).iteration_s(1, 1000.0), WithinRel(0.020 + sends, 1e-12));
}
