// Training-step cost per GPU (see training_time.h).
#include "models/timing/training_time.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "models/arch_params.h"
#include "models/cost/roofline.h"
#include "models/ops/layer_ops.h"
#include "models/timing/attention_kernels.h"
#include "models/timing/inference_time.h"

namespace rlsim {
namespace {

/// Forward work redone in backward: none, the attention core again (selective), or the whole forward.
double recomputed(Recompute recompute, double forward_s, double attention_s) {
  switch (recompute) {
    case Recompute::none: return 0.0;
    case Recompute::selective: return attention_s;
    case Recompute::full: return forward_s;
  }
  return 0.0;
}

/// One pipeline stage's cost of a rank's load: the ops other than the attention core per token
/// (backward twice forward), the attention core's forward and backward per squared token.
struct PassCostShape {
  double per_token = 0.0;
  double attention_forward_per_squared_token = 0.0;
  double attention_backward_per_squared_token = 0.0;

  double attention_forward_s(const RankLoad& r) const {
    return attention_forward_per_squared_token * r.squared_tokens;
  }
  double forward_s(const RankLoad& r) const { return per_token * r.tokens + attention_forward_s(r); }
  double backward_s(const RankLoad& r) const {
    return 2.0 * per_token * r.tokens + attention_backward_per_squared_token * r.squared_tokens;
  }
};

/// Forward, backward and recompute of one rank's training pass.
struct RankPass {
  double forward = 0.0, backward = 0.0, recompute = 0.0;
  double total() const { return forward + backward + recompute; }
};

RankPass rank_pass(const PassCostShape& shape, const RankLoad& load, Recompute recompute) {
  RankPass p{shape.forward_s(load), shape.backward_s(load), 0.0};
  p.recompute = recomputed(recompute, p.forward, shape.attention_forward_s(load));
  return p;
}

/// Forward, backward and recompute of the slowest rank of each mini-batch, summed over the step, and
/// the forward-only pass of the slowest rank over the whole step (TrainingOptions::sequence_tokens).
void price_sequences(TrainingStepTime& step, const PassCostShape& shape, const TrainingOptions& options,
                     int dp) {
  const std::vector<double>& sequences = options.sequence_tokens;
  const size_t minis = static_cast<size_t>(std::max(1, options.mini_batches));
  double slowest = 0.0, mean = 0.0;
  for (size_t mini = 0; mini < minis; ++mini) {
    const auto first = sequences.begin() + static_cast<std::ptrdiff_t>(mini * sequences.size() / minis);
    const auto last = sequences.begin() + static_cast<std::ptrdiff_t>((mini + 1) * sequences.size() / minis);
    RankPass worst;
    double total = 0.0;
    for (const RankLoad& rank : split_over_ranks({first, last}, dp, options.balance)) {
      const RankPass pass = rank_pass(shape, rank, options.recompute);
      total += pass.total();
      if (pass.total() > worst.total()) worst = pass;
    }
    step.forward_s += worst.forward;
    step.backward_s += worst.backward + worst.recompute;
    step.recompute_s += worst.recompute;
    slowest += worst.total();
    mean += total / dp;
  }
  step.rank_imbalance = mean > 0.0 ? slowest / mean : 1.0;
  // The log-prob passes run over the rank's whole share of the step, without a step between.
  for (const RankLoad& rank : split_over_ranks(sequences, dp, options.balance))
    step.forward_only_s = std::max(step.forward_only_s, shape.forward_s(rank));
}

}  // namespace

TrainingStepTime training_step_time(const ModelArch& arch, const HardwareSpec& card, const CostModel& cost,
                                    int64_t tokens, int dp, int tp, int pp, const TrainingOptions& options) {
  assert(dp >= 1 && tp >= 1 && pp >= 1 && tokens >= dp && options.sequence_length >= 1 &&
         "a training step needs tokens for every DP rank and positive parallel degrees");
  TrainingStepTime step;
  const int64_t rank_tokens = tokens / dp;
  step.tokens_per_gpu = static_cast<double>(rank_tokens);

  // One DP rank's tokens as whole sequences (a last partial sequence counts as a shorter one).
  ForwardPass pass;
  pass.kind = PassKind::training;
  pass.new_tokens = std::min<int64_t>(options.sequence_length, rank_tokens);
  pass.sequences = std::max<int64_t>(1, rank_tokens / pass.new_tokens);
  pass.tp = tp;
  pass.weights = options.compute;
  double full_forward = 0.0, attention_core = 0.0, attention_flops = 0.0;
  for (const CountedOp& counted : forward_ops(arch, pass)) {
    const double seconds = counted.count * cost.seconds(counted.op, card);
    full_forward += seconds;
    if (counted.op.name == "attn_core") {
      attention_core += seconds;
      attention_flops += counted.count * counted.op.flops;
    }
  }
  // The attention core at the kernel's measured forward and backward throughput where it was measured
  // on this card's tensor cores; elsewhere as the cost model prices the forward, the backward doing
  // the kernel's multiple of its FLOPs at the same pace.
  const AttentionKernel kernel = options.attention_kernel.value_or(AttentionKernel::cost_model);
  double attention_forward = attention_core;
  double attention_backward = attention_backward_flop_ratio(kernel) * attention_core;
  const double peak = compute_peak(card, options.compute);
  if (const auto measured = attention_kernel_efficiency(kernel, static_cast<double>(pass.new_tokens), peak)) {
    attention_forward = attention_flops / (peak * measured->forward);
    attention_backward =
        attention_backward_flop_ratio(kernel) * attention_flops / (peak * measured->backward);
  }
  // One stage's cost per token and per squared token, from the reference pass of whole sequences.
  const double reference = static_cast<double>(pass.new_tokens);
  const double squared = static_cast<double>(pass.sequences) * reference * reference;
  const PassCostShape shape{(full_forward - attention_core) / static_cast<double>(pass.tokens()) / pp,
                            attention_forward / squared / pp, attention_backward / squared / pp};
  if (options.sequence_tokens.empty()) {
    // Every rank alike: its tokens as sequences of the reference length.
    const RankLoad even{static_cast<double>(rank_tokens), static_cast<double>(rank_tokens) * reference};
    const RankPass p = rank_pass(shape, even, options.recompute);
    step.forward_s = p.forward;
    step.backward_s = p.backward + p.recompute;
    step.recompute_s = p.recompute;
    step.forward_only_s = p.forward;
  } else {
    price_sequences(step, shape, options, dp);
  }
  // 1F1B: m micro-batches (one packed sequence each) per mini-batch on each DP rank.
  const double micro_batches =
      std::max(1.0, std::ceil(static_cast<double>(pass.sequences) / std::max(1, options.mini_batches)));
  step.pipeline_bubble_fraction = (pp - 1) / micro_batches;

  step.params_per_gpu = total_params(arch) / (static_cast<double>(tp) * pp);
  // ZeRO-1 and up (FSDP, Megatron's distributed optimizer) shard the optimizer states over DP: each
  // rank updates its 1/dp of the parameters (Rajbhandari et al. 2020 §5.1).
  const double updated = options.sharding >= Sharding::zero1 ? step.params_per_gpu / dp : step.params_per_gpu;
  const Op update = make_memory_op("optimizer", updated * options.optimizer_bytes_per_param,
                                   updated * options.optimizer_flops_per_param, Precision::fp32);
  step.optimizer_s = cost.seconds(update, card);
  step.gradient_bytes = dp > 1 ? step.params_per_gpu * bytes_per_element(options.gradients) : 0.0;
  step.weight_gather_bytes = dp > 1 && options.sharding == Sharding::zero3
                                 ? 2.0 * step.params_per_gpu * bytes_per_element(options.compute)
                                 : 0.0;
  // Forward and backward each all-reduce activations twice per layer of this stage (Megatron f/g),
  // one message per micro-batch (its packed sequence's activations); a full recompute redoes the
  // forward's two in backward.
  step.tp_allreduce_bytes = tp > 1 ? 2.0 * tp_allreduce_bytes_per_token(arch, options.compute) *
                                         static_cast<double>(rank_tokens) / pp
                                   : 0.0;
  if (tp > 1) {
    const double message_bytes = static_cast<double>(pass.new_tokens) *
                                 tp_allreduce_bytes_per_token(arch, options.compute) /
                                 tp_allreduces_per_forward(arch);
    const double one = options.tp_allreduce_fit
                           ? collective_seconds(*options.tp_allreduce_fit, tp, message_bytes)
                           : all_reduce_seconds(message_bytes, tp, options.tp_link);
    // The reference pass's messages, rescaled to the rank's tokens and shared among the stages.
    const double forward_messages = tp_allreduces_per_forward(arch) * static_cast<double>(rank_tokens) /
                                    static_cast<double>(pass.new_tokens) / pp;
    step.tp_forward_s = forward_messages * one;
    step.tp_backward_s = (options.recompute == Recompute::full ? 2.0 : 1.0) * step.tp_forward_s;
  }
  return step;
}

}  // namespace rlsim
