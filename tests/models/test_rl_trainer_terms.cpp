// The trainer as RL trainers run it: variable-length sequences over the DP ranks (the slowest rank
// sets each optimizer step), attention at its own length and at the training kernel's measured
// throughput, the fp32 loss head, and the optimizer update of a ZeRO shard.
#include <catch2/catch.hpp>
#include <numeric>

#include "models/arch_params.h"
#include "models/cost/roofline_cost_model.h"
#include "models/ops/layer_ops.h"
#include "models/timing/attention_kernels.h"
#include "models/timing/rank_balance.h"
#include "models/timing/training_time.h"
#include "tests/models/reference_specs.h"

using namespace rlsim;
using Catch::Matchers::WithinRel;

namespace {

double tokens_of(const std::vector<RankLoad>& ranks) {
  return std::accumulate(ranks.begin(), ranks.end(), 0.0,
                         [](double sum, const RankLoad& r) { return sum + r.tokens; });
}

TrainingOptions with_sequences(std::vector<double> sequences, int mini_batches = 1) {
  TrainingOptions o;
  o.sequence_length = 4096;
  o.mini_batches = mini_batches;
  o.sequence_tokens = std::move(sequences);
  return o;
}

int64_t sum(const std::vector<double>& v) {
  return static_cast<int64_t>(std::accumulate(v.begin(), v.end(), 0.0));
}

}  // namespace

TEST_CASE("balancing by tokens puts the longest sequences on the least loaded ranks", "[training]") {
  const std::vector<double> sequences{8000, 1000, 1000, 1000, 1000, 6000, 1000, 1000};
  const std::vector<RankLoad> balanced = split_over_ranks(sequences, 2, RankBalance::tokens);
  // Longest first: 8000 -> rank 0, 6000 -> rank 1, then the 1000s to rank 1 until it passes rank 0.
  CHECK(balanced[0].tokens == 10000);
  CHECK(balanced[1].tokens == 10000);
  CHECK(balanced[0].squared_tokens == 8000.0 * 8000 + 2 * 1e6);
  // By count, in order: the first four to rank 0, the last four to rank 1.
  const std::vector<RankLoad> chunks = split_over_ranks(sequences, 2, RankBalance::none);
  CHECK(chunks[0].tokens == 11000);
  CHECK(chunks[1].tokens == 9000);
  // Every token lands somewhere, with more ranks than sequences too.
  CHECK(tokens_of(split_over_ranks(sequences, 16, RankBalance::tokens)) == 20000);
  CHECK(tokens_of(split_over_ranks(sequences, 16, RankBalance::none)) == 20000);
}

TEST_CASE("the slowest DP rank sets each optimizer step, and equal sequences are the even split",
          "[training]") {
  const ModelArch m = test::llama2_7b();
  RooflineCostModel cost;
  // 16 sequences of 4096 over 4 ranks: every rank alike, as the even split prices it.
  const std::vector<double> equal(16, 4096.0);
  const TrainingStepTime even =
      training_step_time(m, test::h100(), cost, sum(equal), 4, 1, 1, with_sequences({}));
  const TrainingStepTime same =
      training_step_time(m, test::h100(), cost, sum(equal), 4, 1, 1, with_sequences(equal));
  CHECK_THAT(same.forward_s, WithinRel(even.forward_s, 1e-9));
  CHECK_THAT(same.backward_s, WithinRel(even.backward_s, 1e-9));
  CHECK_THAT(same.rank_imbalance, WithinRel(1.0, 1e-9));
  // The same tokens with one sequence of 16K among short ones: the rank holding it sets the step.
  std::vector<double> tail(13, 3 * 4096.0 / 13);
  tail.insert(tail.begin(), {16384.0, 4096.0, 4096.0});
  tail.resize(16, 0.0);
  const double total = static_cast<double>(sum(tail));
  for (double& t : tail) t *= 16 * 4096.0 / total;  // the same token count as `equal`
  const TrainingStepTime skewed =
      training_step_time(m, test::h100(), cost, sum(tail), 4, 1, 1, with_sequences(tail));
  CHECK(skewed.rank_imbalance > 1.0);
  CHECK(skewed.training_pass_s() > same.training_pass_s());
}

TEST_CASE("attention grows with the square of each sequence's length", "[training]") {
  const ModelArch m = test::llama2_7b();
  RooflineCostModel cost;
  // One rank: 8 sequences of 1024 against 1 of 8192, the same tokens.
  const TrainingStepTime short_ones = training_step_time(m, test::h100(), cost, 8192, 1, 1, 1,
                                                         with_sequences(std::vector<double>(8, 1024.0)));
  const TrainingStepTime long_one =
      training_step_time(m, test::h100(), cost, 8192, 1, 1, 1, with_sequences({8192.0}));
  CHECK(long_one.forward_s > short_ones.forward_s);
  // The difference is attention alone: 8 × 1024² against 8192², 7/8 of the long one's attention.
  TrainingOptions none = with_sequences({8192.0});
  none.recompute = Recompute::selective;
  const TrainingStepTime selective = training_step_time(m, test::h100(), cost, 8192, 1, 1, 1, none);
  CHECK_THAT(long_one.forward_s - short_ones.forward_s, WithinRel(7.0 / 8 * selective.recompute_s, 1e-6));
}

TEST_CASE("training attention runs at the kernel's measured forward and backward throughput", "[training]") {
  // FlashAttention-3 paper, H100: FlashAttention-2 forward (causal) 319 TFLOPS at 4K, backward 310.
  const auto fa2 = attention_kernel_efficiency(AttentionKernel::flash2, 4096, 989e12);
  REQUIRE(fa2);
  CHECK_THAT(fa2->forward, WithinRel(319.0 / 989, 1e-9));
  CHECK_THAT(fa2->backward, WithinRel(310.0 / 989, 1e-9));
  // Between the measured lengths, log-linear; beyond them, held.
  CHECK_THAT(attention_kernel_efficiency(AttentionKernel::cudnn, 2896.3, 989e12)->forward,
             WithinRel((484.0 + 518.0) / 2 / 989, 1e-3));
  CHECK_THAT(attention_kernel_efficiency(AttentionKernel::flash3, 100000, 989e12)->forward,
             WithinRel(616.0 / 989, 1e-9));
  // Measured on the H100's tensor cores only; cost_model is never a measured kernel.
  CHECK(!attention_kernel_efficiency(AttentionKernel::flash2, 4096, 148e12));
  CHECK(!attention_kernel_efficiency(AttentionKernel::cost_model, 4096, 989e12));
  CHECK(attention_backward_flop_ratio(AttentionKernel::flash2) == 2.5);
  CHECK(attention_backward_flop_ratio(AttentionKernel::cost_model) == 2.0);

  const ModelArch m = test::llama2_7b();
  RooflineCostModel cost;
  TrainingOptions roofline = with_sequences(std::vector<double>(4, 4096.0));
  TrainingOptions flash2 = roofline;
  flash2.attention_kernel = AttentionKernel::flash2;
  const TrainingStepTime by_cost = training_step_time(m, test::h100(), cost, 16384, 1, 1, 1, roofline);
  const TrainingStepTime by_kernel = training_step_time(m, test::h100(), cost, 16384, 1, 1, 1, flash2);
  // FlashAttention-2 reaches about a third of the peak where the roofline assumes 60 %: slower, and
  // its backward more than twice its forward.
  CHECK(by_kernel.forward_s > by_cost.forward_s);
  CHECK(by_kernel.backward_s > 2.0 * by_kernel.forward_s);
  CHECK_THAT(by_cost.backward_s, WithinRel(2.0 * by_cost.forward_s, 1e-12));
  // On H20 no kernel is measured: the cost model's forward, a backward of 2.5× its FLOPs.
  TrainingOptions h20 = flash2;
  const TrainingStepTime other = training_step_time(m, test::h20(), cost, 16384, 1, 1, 1, h20);
  const TrainingStepTime other_cost = training_step_time(m, test::h20(), cost, 16384, 1, 1, 1, roofline);
  CHECK_THAT(other.forward_s, WithinRel(other_cost.forward_s, 1e-12));
  CHECK(other.backward_s > other_cost.backward_s);
}

TEST_CASE("training passes pay the fp32 loss head over the vocabulary, decode does not", "[training]") {
  const ModelArch m = test::llama2_7b();
  ForwardPass training;
  training.kind = PassKind::training;
  training.new_tokens = 4096;
  training.sequences = 2;
  training.tp = 2;
  bool found = false;
  for (const Op& op : head_ops(m, training)) {
    if (op.name != "loss_head") continue;
    found = true;
    // 8192 tokens × 16000 logits (32000 over TP 2), fp32, written once and read three times.
    CHECK(op.bytes == 8192.0 * 16000 * 4 * 4);
    CHECK(op.op_class == OpClass::memory_bound);
  }
  CHECK(found);
  ForwardPass decode;
  decode.kind = PassKind::decode;
  decode.sequences = 8;
  for (const Op& op : head_ops(m, decode)) CHECK(op.name != "loss_head");
}

TEST_CASE("ZeRO shards the optimizer update over the DP ranks", "[training]") {
  const ModelArch m = test::llama2_7b();
  RooflineCostModel cost;
  TrainingOptions replicated;
  TrainingOptions sharded;
  sharded.sharding = Sharding::zero1;
  const TrainingStepTime a = training_step_time(m, test::h100(), cost, 8 * 4096, 8, 1, 1, replicated);
  const TrainingStepTime b = training_step_time(m, test::h100(), cost, 8 * 4096, 8, 1, 1, sharded);
  // 28 bytes per parameter over 85 % of 3.35 TB/s, plus one launch.
  CHECK_THAT(a.optimizer_s, WithinRel(a.params_per_gpu * 28 / (3.35e12 * 0.85) + 4e-6, 1e-9));
  CHECK_THAT(b.optimizer_s, WithinRel(a.params_per_gpu / 8 * 28 / (3.35e12 * 0.85) + 4e-6, 1e-9));
}
