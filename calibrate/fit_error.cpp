// Relative-error statistics.
#include "calibrate/fit_error.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

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

RelativeErrors neighbour_interpolation_errors(const std::vector<Measurement>& points,
                                              const std::function<bool(const Measurement&)>& keep) {
  // Series: one shape but M; each M's median time is what its neighbours offer.
  using SeriesKey = std::tuple<std::string, int, int, int64_t, int64_t, int64_t>;
  std::map<SeriesKey, std::map<int64_t, std::vector<const Measurement*>>> series;
  for (const Measurement& m : points) {
    if (m.op.op_class != OpClass::gemm && m.op.op_class != OpClass::grouped_gemm) continue;
    const GemmShape& g = m.op.gemm;
    series[{m.group, static_cast<int>(m.op.op_class), static_cast<int>(m.op.compute), g.n, g.k, g.groups}][g.m].push_back(&m);
  }
  auto median_seconds = [](std::vector<const Measurement*> at) {
    std::sort(at.begin(), at.end(), [](const Measurement* a, const Measurement* b) { return a->seconds < b->seconds; });
    const size_t n = at.size();
    return n % 2 == 1 ? at[n / 2]->seconds : 0.5 * (at[n / 2 - 1]->seconds + at[n / 2]->seconds);
  };
  RelativeErrors e;
  double sum = 0.0;
  for (const auto& [key, by_m] : series) {
    if (by_m.size() < 3) continue;
    for (auto mid = std::next(by_m.begin()); std::next(mid) != by_m.end(); ++mid) {
      const auto lo = std::prev(mid), hi = std::next(mid);
      const double t_lo = median_seconds(lo->second), t_hi = median_seconds(hi->second);
      const double x = static_cast<double>(mid->first - lo->first) / static_cast<double>(hi->first - lo->first);
      const double predicted = t_lo + (t_hi - t_lo) * x;
      for (const Measurement* m : mid->second) {
        if (keep && !keep(*m)) continue;
        const double error = std::abs(predicted - m->seconds) / m->seconds;
        sum += error;
        e.max_error = std::max(e.max_error, error);
        ++e.points;
      }
    }
  }
  e.mape = e.points > 0 ? sum / e.points : 0.0;
  return e;
}

}  // namespace rlsim
