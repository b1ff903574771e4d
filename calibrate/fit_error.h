// Relative-error statistics used everywhere a fit is scored: MAPE and the largest error.
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

}  // namespace rlsim
