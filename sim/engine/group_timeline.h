// GroupTimeline: what one GPU group does, recorded on the timeline track of each of its GPUs. The
// group works in lockstep (tensor parallelism), so its leader's actor runs the work and every
// member's track gets the same record. Each record is tagged with the RL step in force over it: a
// span that crosses a step change (an instance idle from the end of step k's rollout into step
// k+1) is cut there, its first part tagged k and the rest k+1.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sim/platform/gpu_state.h"
#include "sim/platform/timeline.h"

namespace rlsim {

class GroupTimeline {
 public:
  GroupTimeline(std::vector<int> tracks, Timeline& timeline)
      : tracks_(std::move(tracks)), timeline_(timeline) {}

  /// The step label of what is recorded from now on.
  void set_step(int step);
  /// Records `state` from `start_s` to now on every GPU of the group.
  void record(GpuState state, double start_s) const { record_span(state, start_s, now_s()); }
  /// Records work from `start_s` to now of which each GPU spent `busy_share` as `state` and the rest
  /// in the pipeline bubble: the busy part first, then the bubble, in one span each.
  void record_pipelined(GpuState state, double start_s, double busy_share) const;
  /// Runs `seconds` of work on the calling actor and records it as `state` (nothing when ≤ 0), of
  /// which each GPU worked `busy_share` (record_pipelined).
  void run_busy(double seconds, GpuState state, double busy_share = 1.0) const;
  /// Records one finished call's TTFT and TPOT.
  void record_call(const CallRecord& call) const { timeline_.record_call(call); }

 private:
  static double now_s();
  void record_span(GpuState state, double start_s, double end_s) const;

  std::vector<int> tracks_;
  Timeline& timeline_;
  int step_ = 0;
  std::vector<std::pair<double, int>> step_changes_;  ///< (time, step from then on), in time order
};

}  // namespace rlsim
