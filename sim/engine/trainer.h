// Trainer: one RL step's training on the training GPUs (DP × TP × PP). Before the update it runs
// the algorithm's extra forward passes (GRPO: old-policy log-probs and the reference model; PPO:
// also the critic's values), then per mini-batch a forward+backward exec on every GPU (its TP
// all-reduces included, priced by the collective model or the profile's fit), the gradient
// all-reduce as ring comms among data-parallel peers over the real links, and the optimizer step.
// PPO also trains a critic of the policy's size. Times per GPU come from models/timing/training_time.h.
// Under faults (fault_state.h) the trainer waits on its activities only until the next event that
// stops it; then the step's training is lost: it waits for the repair, pays the restart, and
// trains again — after going back to the last checkpoint, the steps since then too.
#pragma once

#include <simgrid/s4u.hpp>
#include <string>
#include <vector>

#include "models/cost/cost_model.h"
#include "sim/engine/rl_context.h"

namespace rlsim {

class Trainer {
 public:
  /// `gpus` must hold dp × training.tp × training.pp GPUs, model-parallel groups contiguous.
  Trainer(RlContext& context, const CostModel& cost, GpuGroup gpus, int dp);

  /// Trains on `sequences` (each one's tokens, in the batch's order) in `optimizer_steps` mini-batches;
  /// blocks until the last optimizer step.
  void train(const std::vector<double>& sequences, int optimizer_steps, int step);
  /// Bytes of policy weights the trainer hands to weight sync.
  double weight_bytes() const;
  const GpuGroup& gpus() const { return gpus_; }

 private:
  void train_once(const std::vector<double>& sequences, int optimizer_steps, int step);
  void run_on_all(double seconds, GpuState state, int step);
  /// Waits for `activities` (started at `start`, recorded as `state`); throws when a fault stops
  /// the trainer first, after cancelling them and recording the work done until then.
  void wait_all(std::vector<simgrid::s4u::ActivityPtr> activities, GpuState state, double start, int step);
  /// The DP exchange of one optimizer step: every GPU sends `ring_bytes` (TrainingStepTime::
  /// dp_ring_bytes) to the same model-parallel position in the next replica.
  void all_reduce_gradients(double ring_bytes, int step);

  RlContext& context_;
  const CostModel& cost_;
  GpuGroup gpus_;
  int dp_;
};

}  // namespace rlsim
