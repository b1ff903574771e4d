// rlsim's phases under verl's names (see verl_timing.h).
#include "tools/report/verl_timing.h"

namespace rlsim {

std::map<std::string, double> verl_timing_s(const Scenario& s, const RunMetrics& m) {
  const double gpus = static_cast<double>(s.training.dp) * s.training.tp * s.training.pp;
  const double steps = m.steps > 0 ? m.steps : 1.0;
  auto per_step = [&](GpuState state) {
    const auto it = m.gpu_seconds_by_state.find(state);
    return it == m.gpu_seconds_by_state.end() ? 0.0 : it->second / gpus / steps;
  };
  // The trainer runs the extra forwards back to back as one stretch (sim/engine/trainer.cpp):
  // GRPO two (old log-probs, reference), PPO three (+ the critic's values).
  const double forwards = s.training.algorithm == RlAlgorithm::ppo ? 3.0 : 2.0;
  const double extra = per_step(GpuState::busy(Phase::ref_logprob));
  std::map<std::string, double> t;
  t["gen"] = m.phase_mean_s.count("rollout") ? m.phase_mean_s.at("rollout") : 0.0;
  t["old_log_prob"] = extra / forwards;
  t["ref"] = extra / forwards;
  if (s.training.algorithm == RlAlgorithm::ppo) t["values"] = extra / forwards;
  t["update_actor"] = per_step(GpuState::busy(Phase::train));
  t["update_weights"] = m.phase_mean_s.count("weight_sync") ? m.phase_mean_s.at("weight_sync") : 0.0;
  return t;
}

}  // namespace rlsim
