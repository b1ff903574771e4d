// Blast radius from the timeline's `down` and `wait:fault` intervals.
#include "sim/engine/faults/fault_metrics.h"

#include <algorithm>
#include <set>

namespace rlsim {

FaultMetrics fault_metrics(const Timeline& timeline, int events) {
  FaultMetrics m;
  m.events = events;
  std::set<int> failed, stopped;
  std::vector<std::pair<double, double>> windows;
  for (const Interval& i : timeline.intervals()) {
    const bool down = i.state == GpuState::down();
    if (!down && i.state != GpuState::wait(WaitCause::fault)) continue;
    (down ? m.gpu_seconds_down : m.gpu_seconds_stopped) += i.end_s - i.start_s;
    if (down) failed.insert(i.track);
    stopped.insert(i.track);
    windows.emplace_back(i.start_s, i.end_s);
  }
  m.gpus_failed = static_cast<int>(failed.size());
  m.gpus_stopped = static_cast<int>(stopped.size());
  for (const StepRecord& step : timeline.steps()) {
    for (const auto& [start, end] : windows) {
      if (start < step.end_s && end > step.start_s) {
        m.steps_touched.push_back(step.step);
        break;
      }
    }
  }
  std::sort(m.steps_touched.begin(), m.steps_touched.end());
  m.steps_touched.erase(std::unique(m.steps_touched.begin(), m.steps_touched.end()), m.steps_touched.end());
  return m;
}

}  // namespace rlsim
