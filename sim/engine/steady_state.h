// The steady state of an RL run: which steps are representative of a long run, and how sure their
// mean is. The first step fills the pipeline (first launch, no overlap yet) and the last one drains it
// (it only finishes what earlier steps left in flight, with nothing of the next step beside it): both
// are left out. Every per-step figure of RunMetrics (step time, throughput, cost, bubble by cause,
// utilisation, staleness, TTFT/TPOT, the advisor's inputs) is computed over the same window of steps.
#pragma once

#include <vector>

#include "sim/platform/timeline.h"

namespace rlsim {

/// Steady steps a mean needs before a ranking on it means anything (an interval needs two; three
/// keep Student's t factor below 4.3).
constexpr int kStepsToRank = 3;

struct SteadyWindow {
  int warmup_steps = 0;  ///< left out at the start (pipeline fill)
  int drain_steps = 0;   ///< left out at the end (pipeline drain)
  int steps = 0;         ///< the steady steps: [warmup_steps, warmup_steps + steps) by record order
  double start_s = 0.0;  ///< the first steady step's start
  double end_s = 0.0;    ///< the last steady step's end
  double seconds() const { return end_s - start_s; }
  bool contains_step(size_t index) const {
    return index >= static_cast<size_t>(warmup_steps) && index < static_cast<size_t>(warmup_steps + steps);
  }
  /// Whether the instant `t` lies in the window (a call that finished then counts in its figures).
  bool holds(double t) const { return t >= start_s && t <= end_s; }
  /// Whether [from, to) overlaps the window's time at all.
  bool overlaps(double from, double to) const { return to > start_s && from < end_s; }
};

/// The window of `steps` (as recorded, in order): one warm-up step left out from 2 steps on, one drain
/// step from 3 on; a single step is its own steady state.
SteadyWindow steady_window(const std::vector<StepRecord>& steps);

/// A mean with its 95 % confidence interval (Student's t over the samples; no interval from fewer
/// than 2 samples: half_width is then 0 and `known` false).
struct MeanInterval {
  double mean = 0.0;
  double half_width = 0.0;
  int samples = 0;
  bool known = false;
  double low() const { return mean - half_width; }
  double high() const { return mean + half_width; }
};

MeanInterval mean_interval_95(const std::vector<double>& values);

/// Student's t quantile at 0.975 for `dof` degrees of freedom (dof ≥ 1).
double student_t_975(int dof);

}  // namespace rlsim
