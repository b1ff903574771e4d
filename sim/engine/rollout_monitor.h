// RolloutMonitor: the global rollout condition over time, which tells why an idle inference
// instance waits. While trajectories are unfinished and some agent is in a tool call, idle
// instances wait on agents (rollout_waits_agents); while trajectories are unfinished and none is
// in a tool, they wait on the long tail elsewhere (long_tail); with no rollout work at all they
// wait for new weights (rollout_waits_weights). While the policy holds back work that its
// staleness bound allows (it launches whole steps only once the previous one drained), idle
// instances wait on that choice (no_work_launched), whatever the agents do. Instances record
// `wait:idle`; classify() splits those intervals into causes at the end of the run.
#pragma once

#include <vector>

#include "sim/platform/timeline.h"

namespace rlsim {

class RolloutMonitor {
 public:
  void trajectory_started(double now) {
    ++unfinished_;
    note(now);
  }
  void trajectory_finished(double now) {
    --unfinished_;
    note(now);
  }
  void tool_started(double now) {
    ++in_tool_;
    note(now);
  }
  void tool_finished(double now) {
    --in_tool_;
    note(now);
  }

  /// The policy holds back launchable work (`held`) or no longer does, from `now` on.
  void launch_held(double now, bool held) {
    held_ = held;
    note(now);
  }

  /// Replaces every `wait:idle` interval of `timeline` by the causes in force over it.
  void classify(Timeline& timeline) const;

 private:
  WaitCause cause() const;
  void note(double now);

  long unfinished_ = 0;
  long in_tool_ = 0;
  bool held_ = false;
  std::vector<std::pair<double, WaitCause>> changes_;  ///< (time, cause from then on)
};

}  // namespace rlsim
