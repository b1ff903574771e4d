// RolloutWork: the time one inference instance needs for its share of a step's trajectories, with
// continuous batching at `max_batch`: the instance runs at least as many decode iterations as the
// batch-limited throughput needs and as its longest trajectory needs (the long tail), each
// trajectory also paying its prefills and tool latencies in sequence.
#pragma once

#include <vector>

#include "sim/engine/timeline.h"
#include "sim/engine/workload.h"
#include "sim/scenario/scenario.h"

namespace rlsim {

struct RolloutPlan {
  double seconds = 0.0;           ///< instance busy time for the step
  double generated_tokens = 0.0;
  std::vector<CallRecord> calls;  ///< TTFT/TPOT of each LLM call
};

RolloutPlan plan_rollout(const Scenario& scenario, const HardwareSpec& card, const std::vector<const Trajectory*>& work);

}  // namespace rlsim
