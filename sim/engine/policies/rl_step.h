// Building blocks the policies share: sampling and launching one step's trajectories, collecting
// finished ones into a training batch, and the step record the metrics read.
#pragma once

#include <utility>
#include <vector>

#include "sim/engine/rl_context.h"
#include "sim/engine/rollout_service.h"

namespace rlsim {

/// What the trainer consumes: finished trajectories, summed.
struct TrainingBatch {
  int samples = 0;
  int truncated = 0;  ///< samples whose last reply was cut at the length cap (verl's clip)
  double generated_tokens = 0.0;
  double train_tokens = 0.0;  ///< full sequences (prompt, observations and outputs)
  /// Each trajectory's training sequence with its id, as they finished.
  std::vector<std::pair<int, double>> sequences;
  /// The sequences' tokens in launch order (by trajectory id): the order a trainer's batch keeps.
  std::vector<double> sequence_tokens() const;
  double version_token_sum = 0.0;  ///< Σ weight version over generated tokens
  double first_finish_s = 0.0;
  double last_finish_s = 0.0;

  void add(const TrajectoryResult& t);
  /// Mean over generated tokens of (trainer version − version that generated the token).
  double staleness(int trainer_version) const;
};

/// Samples the step's trajectories with the run's seeded engine and launches an agent for each.
int launch_step(RlContext& context, RolloutService& service, int step);
/// Blocks until `count` trajectories have finished and sums them.
TrainingBatch collect(RolloutService& service, int count);
/// Completes `record` with what `batch` trained on (samples, tokens, staleness against the
/// record's step) and adds it to the timeline.
void record_step(RlContext& context, StepRecord record, const TrainingBatch& batch);
/// Stops the service and hands the agents' time (waiting on the LLM, in tools) to the metrics.
void stop_rollout(RlContext& context, RolloutService& service);

}  // namespace rlsim
