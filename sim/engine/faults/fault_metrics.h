// FaultMetrics: a run's blast radius — how many GPUs failed (`down`), how many stopped because of
// a failure (down, or healthy but waiting out a repair or restarting: `wait:fault`), the
// GPU-seconds each lost, which steps a failure touched (warm-up and drain included: a fault is
// reported wherever it falls), and how long failed links were down.
#pragma once

#include <vector>

#include "sim/platform/timeline.h"

namespace rlsim {

struct FaultMetrics {
  int events = 0;
  int gpus_failed = 0;
  int gpus_stopped = 0;  ///< failed ones included
  double gpu_seconds_down = 0.0;
  double gpu_seconds_stopped = 0.0;  ///< healthy GPUs waiting out a repair, and restarts (`wait:fault`)
  std::vector<int> steps_touched;    ///< steps during which some GPU was down or stopped, ascending
  int links_failed = 0;
  double link_seconds_down = 0.0;  ///< summed over link events

  double gpu_seconds_lost() const { return gpu_seconds_down + gpu_seconds_stopped; }
};

FaultMetrics fault_metrics(const Timeline& timeline, int events);

}  // namespace rlsim
