// Training MFU per phase and pool (see training_mfu.h).
#include "tools/report/training_mfu.h"

#include <vector>

#include "models/timing/model_flops.h"

namespace rlsim {
namespace {

/// A training phase as the timeline records it, with its model FLOPs over the run.
struct PhaseWork {
  GpuState state;
  double model_flops;
  std::vector<std::string> names;  ///< verl's names for it
};

}  // namespace

TrainingMfu training_mfu(const Scenario& s, const RunMetrics& m) {
  TrainingMfu mfu;
  const double forward = forward_model_flops_per_token(s.model, s.training.sequence_tokens);
  mfu.model_flops_per_token_forward = forward;
  if (m.trained_tokens <= 0.0) return mfu;
  const bool ppo = s.training.algorithm == RlAlgorithm::ppo;
  // As the trainer runs them (sim/engine/trainer.cpp): the extra forwards, then the update of the
  // actor, and with PPO the critic too.
  const std::vector<std::string> forwards = s.training.extra_forwards();
  const double trained_models = ppo ? 2.0 : 1.0;
  const std::vector<PhaseWork> phases{
      {GpuState::busy(Phase::train), m.trained_tokens * trained_models * 3.0 * forward, {"update_actor"}},
      {GpuState::busy(Phase::ref_logprob), m.trained_tokens * static_cast<double>(forwards.size()) * forward,
       forwards}};
  for (const PhaseWork& phase : phases) {
    // The GPUs that did the phase, their seconds in it and their peak.
    double gpus = 0.0, peak_gpu_seconds = 0.0;
    for (const PoolSpec& pool : s.cluster.pools) {
      const auto it = m.pools.find(pool.name);
      if (it == m.pools.end() || !it->second.seconds_by_state.count(phase.state)) continue;
      gpus += it->second.gpus;
      peak_gpu_seconds +=
          it->second.seconds_by_state.at(phase.state) * pool.card.peak(s.training.weights).value_or(0.0);
    }
    if (gpus <= 0.0 || peak_gpu_seconds <= 0.0) continue;
    for (const std::string& name : phase.names) mfu.by_phase[name] = phase.model_flops / peak_gpu_seconds;
    for (const PoolSpec& pool : s.cluster.pools) {
      const auto it = m.pools.find(pool.name);
      if (it == m.pools.end() || !it->second.seconds_by_state.count(phase.state)) continue;
      const double share = phase.model_flops * it->second.gpus / gpus;
      const double value = model_flops_utilization(share, it->second.seconds_by_state.at(phase.state), 1.0,
                                                   pool.card.peak(s.training.weights).value_or(0.0));
      for (const std::string& name : phase.names) mfu.by_pool[pool.name][name] = value;
    }
  }
  return mfu;
}

}  // namespace rlsim
