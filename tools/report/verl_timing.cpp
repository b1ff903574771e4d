// rlsim's phases under verl's names (see verl_timing.h).
#include "tools/report/verl_timing.h"

namespace rlsim {

std::map<std::string, double> verl_timing_s(const Scenario& s, const RunMetrics& m) {
  const double gpus = static_cast<double>(s.training.dp) * s.training.tp * s.training.pp;
  // The GPU-seconds cover the steady steps only (sim/engine/metrics.h), so they are shared over those.
  const double steps = m.steady.steps > 0 ? m.steady.steps : 1.0;
  auto per_step = [&](GpuState state) {
    const auto it = m.gpu_seconds_by_state.find(state);
    return it == m.gpu_seconds_by_state.end() ? 0.0 : it->second / gpus / steps;
  };
  // The trainer runs the extra forwards back to back as one stretch (sim/engine/trainer.cpp), each
  // an equal share of it.
  const std::vector<std::string> forwards = s.training.extra_forwards();
  const double extra = per_step(GpuState::busy(Phase::ref_logprob));
  std::map<std::string, double> t;
  t["gen"] = m.phase_mean_s.count("rollout") ? m.phase_mean_s.at("rollout") : 0.0;
  for (const std::string& pass : forwards) t[pass] = extra / static_cast<double>(forwards.size());
  t["update_actor"] = per_step(GpuState::busy(Phase::train));
  t["update_weights"] = m.phase_mean_s.count("weight_sync") ? m.phase_mean_s.at("weight_sync") : 0.0;
  return t;
}

}  // namespace rlsim
