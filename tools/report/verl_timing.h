// An RL step's phases under the names verl logs them (timing_s/gen, timing_s/old_log_prob,
// timing_s/ref, timing_s/update_actor, timing_s/update_weights), so users can hold rlsim's figures
// against their verl logs: per-step means of the rollout phase, the training GPUs' busy time in
// the extra forwards the scenario runs (the old policy's log-probs unless the rollout's are taken,
// the reference's unless there is none, PPO's critic values) and in the update (PPO's critic update
// included), and the weight sync.
#pragma once

#include <map>
#include <string>

#include "sim/engine/metrics.h"
#include "sim/scenario/scenario.h"

namespace rlsim {

/// verl's phase name -> mean seconds per step.
std::map<std::string, double> verl_timing_s(const Scenario& scenario, const RunMetrics& metrics);

}  // namespace rlsim
