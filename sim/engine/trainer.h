// Trainer: one RL step's training on the training GPUs (DP × TP × PP). Before the update it runs
// the algorithm's extra forward passes (GRPO: old-policy log-probs and the reference model; PPO:
// also the critic's values), then per mini-batch a forward+backward exec on every GPU, the gradient
// all-reduce as ring comms among data-parallel peers over the real links, and the optimizer step.
// PPO also trains a critic of the policy's size. Times per GPU come from models/training_cost.h.
#pragma once

#include "models/cost_model.h"
#include "sim/engine/rl_context.h"

namespace rlsim {

class Trainer {
 public:
  Trainer(RlContext& context, const CostModel& cost, GpuGroup gpus);

  /// Trains on `tokens` (all sequences of the batch); blocks until the last optimizer step.
  void train(double tokens, int step);
  /// Bytes of policy weights the trainer hands to weight sync.
  double weight_bytes() const;
  const GpuGroup& gpus() const { return gpus_; }

 private:
  void run_on_all(double seconds, const std::string& state, int step);
  void all_reduce_gradients(double bytes_per_gpu, int step);

  RlContext& context_;
  const CostModel& cost_;
  GpuGroup gpus_;
};

}  // namespace rlsim
