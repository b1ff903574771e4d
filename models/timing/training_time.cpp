// Training-step cost per GPU (see training_time.h).
#include "models/timing/training_time.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "models/arch_params.h"
#include "models/ops/layer_ops.h"
#include "models/timing/inference_time.h"

namespace rlsim {

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
  double full_forward = 0.0, attention_core = 0.0;
  for (const CountedOp& counted : forward_ops(arch, pass)) {
    const double seconds = counted.count * cost.seconds(counted.op, card);
    full_forward += seconds;
    if (counted.op.name == "attn_core") attention_core += seconds;
  }
  // Rescale for the tokens the whole-sequence split left out, then share the layers among stages.
  const double scale = static_cast<double>(rank_tokens) / static_cast<double>(pass.tokens()) / pp;
  step.forward_s = full_forward * scale;
  switch (options.recompute) {
    case Recompute::none: break;
    case Recompute::selective: step.recompute_s = attention_core * scale; break;
    case Recompute::full: step.recompute_s = step.forward_s; break;
  }
  step.backward_s = 2.0 * step.forward_s + step.recompute_s;
  // 1F1B: m micro-batches (one packed sequence each) per mini-batch on each DP rank.
  const double micro_batches =
      std::max(1.0, std::ceil(static_cast<double>(pass.sequences) / std::max(1, options.mini_batches)));
  step.pipeline_bubble_fraction = (pp - 1) / micro_batches;

  step.params_per_gpu = total_params(arch) / (static_cast<double>(tp) * pp);
  const Op update = make_memory_op("optimizer", step.params_per_gpu * options.optimizer_bytes_per_param,
                                   step.params_per_gpu * options.optimizer_flops_per_param, Precision::fp32);
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
    const double forward_messages =
        tp_allreduces_per_forward(arch) * static_cast<double>(pass.sequences) * scale;
    step.tp_forward_s = forward_messages * one;
    step.tp_backward_s = (options.recompute == Recompute::full ? 2.0 : 1.0) * step.tp_forward_s;
  }
  return step;
}

}  // namespace rlsim
