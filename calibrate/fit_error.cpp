// Relative-error statistics.
#include "calibrate/fit_error.h"

#include <algorithm>
#include <cmath>

namespace rlsim {

RelativeErrors score_points(const std::vector<Measurement>& points, const std::function<double(const Op&)>& predict,
                            const std::function<bool(const Measurement&)>& keep) {
  RelativeErrors e;
  double sum = 0.0;
  for (const Measurement& m : points) {
    if (keep && !keep(m)) continue;
    const double error = std::abs(predict(m.op) - m.seconds) / m.seconds;
    sum += error;
    e.max_error = std::max(e.max_error, error);
    ++e.points;
  }
  e.mape = e.points > 0 ? sum / e.points : 0.0;
  return e;
}

}  // namespace rlsim
