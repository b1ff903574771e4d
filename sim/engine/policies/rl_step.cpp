// Launching and collecting trajectories.
#include "sim/engine/policies/rl_step.h"

#include <algorithm>

#include "sim/engine/workload.h"

namespace rlsim {

void TrainingBatch::add(const TrajectoryResult& t) {
  if (samples == 0) first_finish_s = t.finish_s;
  ++samples;
  truncated += t.truncated ? 1 : 0;
  generated_tokens += t.generated_tokens;
  train_tokens += t.total_tokens;
  sequences.emplace_back(t.id, t.total_tokens);
  version_token_sum += t.version_token_sum;
  last_finish_s = std::max(last_finish_s, t.finish_s);
}

std::vector<double> TrainingBatch::sequence_tokens() const {
  std::vector<std::pair<int, double>> by_id = sequences;
  std::sort(by_id.begin(), by_id.end());
  std::vector<double> tokens;
  tokens.reserve(by_id.size());
  for (const auto& [id, count] : by_id) tokens.push_back(count);
  return tokens;
}

double TrainingBatch::staleness(int trainer_version) const {
  if (generated_tokens <= 0.0) return 0.0;
  return trainer_version - version_token_sum / generated_tokens;
}

int launch_step(RlContext& context, RolloutService& service, int step) {
  auto trajectories = sample_step(context.scenario.workload, context.rng, context.next_trajectory);
  context.next_trajectory += static_cast<int>(trajectories.size());
  for (const auto& trajectory : trajectories) service.launch(trajectory, step);
  return static_cast<int>(trajectories.size());
}

TrainingBatch collect(RolloutService& service, int count) {
  TrainingBatch batch;
  for (int i = 0; i < count; ++i) batch.add(service.wait_finished());
  return batch;
}

void record_step(RlContext& context, StepRecord record, const TrainingBatch& batch) {
  record.samples = batch.samples;
  record.truncated = batch.truncated;
  record.generated_tokens = batch.generated_tokens;
  record.staleness = batch.staleness(record.step);
  context.timeline.record_step(record);
  if (context.on_step)
    context.on_step(static_cast<int>(context.timeline.steps().size()), context.scenario.workload.steps);
}

void stop_rollout(RlContext& context, RolloutService& service) {
  service.stop();
  context.agent_llm_wait_s = service.agent_llm_wait_s();
  context.agent_tool_s = service.agent_tool_s();
}

}  // namespace rlsim
