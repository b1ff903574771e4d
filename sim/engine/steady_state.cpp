// The steady window of an RL run and the 95 % interval of a mean over its steps.
#include "sim/engine/steady_state.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace rlsim {

SteadyWindow steady_window(const std::vector<StepRecord>& steps) {
  SteadyWindow w;
  const int n = static_cast<int>(steps.size());
  w.warmup_steps = n >= 2 ? 1 : 0;
  w.drain_steps = n >= 3 ? 1 : 0;
  w.steps = n - w.warmup_steps - w.drain_steps;
  if (w.steps > 0) {
    w.start_s = steps[static_cast<size_t>(w.warmup_steps)].start_s;
    for (int i = w.warmup_steps; i < w.warmup_steps + w.steps; ++i)
      w.end_s = std::max(w.end_s, steps[static_cast<size_t>(i)].end_s);
  }
  return w;
}

double student_t_975(int dof) {
  // Two-sided 95 % quantiles of Student's t (any statistics table), then the normal's 1.96.
  static constexpr std::array<double, 30> table{12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
                                                2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
                                                2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
                                                2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
  if (dof < 1) return 0.0;
  if (dof <= static_cast<int>(table.size())) return table[static_cast<size_t>(dof - 1)];
  if (dof <= 60) return 2.000 + (2.042 - 2.000) * (60.0 - dof) / 30.0;
  if (dof <= 120) return 1.980 + (2.000 - 1.980) * (120.0 - dof) / 60.0;
  return 1.960;
}

MeanInterval mean_interval_95(const std::vector<double>& values) {
  MeanInterval m;
  m.samples = static_cast<int>(values.size());
  if (values.empty()) return m;
  for (double v : values) m.mean += v;
  m.mean /= m.samples;
  if (m.samples < 2) return m;
  double squares = 0.0;
  for (double v : values) squares += (v - m.mean) * (v - m.mean);
  const double sd = std::sqrt(squares / (m.samples - 1));
  m.half_width = student_t_975(m.samples - 1) * sd / std::sqrt(static_cast<double>(m.samples));
  m.known = true;
  return m;
}

}  // namespace rlsim
