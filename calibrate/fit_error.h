// Relative-error statistics used everywhere a fit is scored: MAPE and the largest error, and the
// measurements' own jitter between neighbouring token counts, the floor under any smooth model.
#pragma once

#include <functional>
#include <vector>

#include "calibrate/measurement.h"

namespace rlsim {

struct RelativeErrors {
  int points = 0;
  double mape = 0.0;       ///< mean |predicted − measured| / measured
  double max_error = 0.0;  ///< largest |predicted − measured| / measured
};

/// Scores `predict` against measured times; `keep` (optional) selects which points count.
RelativeErrors score_points(const std::vector<Measurement>& points, const std::function<double(const Op&)>& predict,
                            const std::function<bool(const Measurement&)>& keep = nullptr);

/// How far each measured GEMM lies from the straight line through its two neighbours in token
/// count (same shape otherwise, same group, same precision): the kernel library's jitter between
/// adjacent sizes (its tile and split choices change from one M to the next), which no smooth model
/// of shape can follow. Scored on points with a neighbour on each side; `keep` (optional) selects
/// which points count. Other op classes are not scored (points = 0).
RelativeErrors neighbour_interpolation_errors(const std::vector<Measurement>& points,
                                              const std::function<bool(const Measurement&)>& keep = nullptr);

}  // namespace rlsim
