// Relative-error statistics used everywhere a fit is scored: MAPE and the largest error, the
// measurements' own jitter between neighbouring token counts, and what a free smooth curve per
// shape reaches: floors under any model smooth in the token count.
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
RelativeErrors score_points(const std::vector<Measurement>& points,
                            const std::function<double(const Op&)>& predict,
                            const std::function<bool(const Measurement&)>& keep = nullptr);

/// How far each measured GEMM lies from the straight line through its two neighbours in token
/// count (same shape otherwise, same group, same precision): the kernel library's jitter between
/// adjacent sizes (its tile and split choices change from one M to the next), which no smooth model
/// of shape can follow. Scored on points with a neighbour on each side; `keep` (optional) selects
/// which points count. Other op classes are not scored (points = 0).
RelativeErrors neighbour_interpolation_errors(const std::vector<Measurement>& points,
                                              const std::function<bool(const Measurement&)>& keep = nullptr);

/// What a curve smooth in M reaches when each GEMM series (one shape but M) gets its own, fitted
/// to the very points it is scored on (`keep`, optional, selects them): piecewise linear in
/// log2(M) with knots every half octave, least squares in relative error. No model of shape can do
/// better on those points unless it follows the kernel library's steps in M; a bound on what a
/// smooth shape model may promise, not a model. Other op classes are not scored.
RelativeErrors per_series_curve_errors(const std::vector<Measurement>& points,
                                       const std::function<bool(const Measurement&)>& keep = nullptr);

}  // namespace rlsim
