// Tracking the rollout condition and classifying idle instance time by it.
#include "sim/engine/rollout_monitor.h"

#include <algorithm>

namespace rlsim {

WaitCause RolloutMonitor::cause() const {
  if (unfinished_ == 0) return WaitCause::rollout_waits_weights;
  if (held_) return WaitCause::no_work_launched;
  if (in_tool_ > 0) return WaitCause::rollout_waits_agents;
  return WaitCause::long_tail;
}

void RolloutMonitor::note(double now) {
  const WaitCause current = cause();
  if (!changes_.empty() && changes_.back().second == current) return;
  if (!changes_.empty() && changes_.back().first == now) {
    changes_.back().second = current;
  } else {
    changes_.emplace_back(now, current);
  }
}

void RolloutMonitor::classify(Timeline& timeline) const {
  timeline.split_intervals(GpuState::wait(WaitCause::idle), [this](double start, double end, auto&& emit) {
    // The cause before the first change is "no rollout work yet".
    auto it = std::upper_bound(changes_.begin(), changes_.end(), start,
                               [](double t, const auto& change) { return t < change.first; });
    WaitCause current = it == changes_.begin() ? WaitCause::rollout_waits_weights : std::prev(it)->second;
    double from = start;
    for (; it != changes_.end() && it->first < end; ++it) {
      emit(GpuState::wait(current), from, it->first);
      current = it->second;
      from = it->first;
    }
    emit(GpuState::wait(current), from, end);
  });
}

}  // namespace rlsim
