// Relative-error statistics.
#include "calibrate/fit_error.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <utility>

namespace rlsim {

namespace {

// GEMM series: one shape (group, class, precision, N, K, groups) but M; per M, its points.
using SeriesPoints = std::map<int64_t, std::vector<const Measurement*>>;
std::vector<SeriesPoints> gemm_series(const std::vector<Measurement>& points) {
  using SeriesKey = std::tuple<std::string, int, int, int64_t, int64_t, int64_t>;
  std::map<SeriesKey, SeriesPoints> series;
  for (const Measurement& m : points) {
    if (m.op.op_class != OpClass::gemm && m.op.op_class != OpClass::grouped_gemm) continue;
    const GemmShape& g = m.op.gemm;
    series[{m.group, static_cast<int>(m.op.op_class), static_cast<int>(m.op.compute), g.n, g.k, g.groups}]
          [g.m]
              .push_back(&m);
  }
  std::vector<SeriesPoints> out;
  for (auto& entry : series) out.push_back(std::move(entry.second));
  return out;
}

void add_error(RelativeErrors& e, double& sum, double predicted, double measured) {
  const double error = std::abs(predicted - measured) / measured;
  sum += error;
  e.max_error = std::max(e.max_error, error);
  ++e.points;
}

// Hat functions on `knots` (ascending): the weights of the two knots around x, piecewise linear.
std::pair<size_t, double> hat(const std::vector<double>& knots, double x) {
  const size_t i = static_cast<size_t>(std::upper_bound(knots.begin(), knots.end() - 1, x) - knots.begin());
  const size_t lo = i == 0 ? 0 : std::min(i - 1, knots.size() - 2);
  return {lo, std::clamp((x - knots[lo]) / (knots[lo + 1] - knots[lo]), 0.0, 1.0)};
}

// Solves A·v = rhs for a symmetric positive-definite tridiagonal A (main diagonal `diag`, the one
// beside it `off`) by elimination without pivoting (Thomas), stable for such matrices.
std::vector<double> solve_symmetric_tridiagonal(std::vector<double> diag, const std::vector<double>& off,
                                                std::vector<double> rhs) {
  const size_t n = diag.size();
  for (size_t i = 1; i < n; ++i) {
    const double f = off[i - 1] / diag[i - 1];
    diag[i] -= f * off[i - 1];
    rhs[i] -= f * rhs[i - 1];
  }
  std::vector<double> value(n);
  value[n - 1] = rhs[n - 1] / diag[n - 1];
  for (size_t i = n - 1; i-- > 0;) value[i] = (rhs[i] - off[i] * value[i + 1]) / diag[i];
  return value;
}

}  // namespace

RelativeErrors score_points(const std::vector<Measurement>& points,
                            const std::function<double(const Op&)>& predict,
                            const std::function<bool(const Measurement&)>& keep) {
  RelativeErrors e;
  double sum = 0.0;
  for (const Measurement& m : points) {
    if (!keep || keep(m)) add_error(e, sum, predict(m.op), m.seconds);
  }
  e.mape = e.points > 0 ? sum / e.points : 0.0;
  return e;
}

RelativeErrors neighbour_interpolation_errors(const std::vector<Measurement>& points,
                                              const std::function<bool(const Measurement&)>& keep) {
  // Each M's median time is what its neighbours offer.
  auto median_seconds = [](std::vector<const Measurement*> at) {
    std::sort(at.begin(), at.end(),
              [](const Measurement* a, const Measurement* b) { return a->seconds < b->seconds; });
    const size_t n = at.size();
    return n % 2 == 1 ? at[n / 2]->seconds : 0.5 * (at[n / 2 - 1]->seconds + at[n / 2]->seconds);
  };
  RelativeErrors e;
  double sum = 0.0;
  for (const SeriesPoints& by_m : gemm_series(points)) {
    if (by_m.size() < 3) continue;
    for (auto mid = std::next(by_m.begin()); std::next(mid) != by_m.end(); ++mid) {
      const auto lo = std::prev(mid), hi = std::next(mid);
      const double t_lo = median_seconds(lo->second), t_hi = median_seconds(hi->second);
      const double x =
          static_cast<double>(mid->first - lo->first) / static_cast<double>(hi->first - lo->first);
      const double predicted = t_lo + (t_hi - t_lo) * x;
      for (const Measurement* m : mid->second) {
        if (!keep || keep(*m)) add_error(e, sum, predicted, m->seconds);
      }
    }
  }
  e.mape = e.points > 0 ? sum / e.points : 0.0;
  return e;
}

RelativeErrors per_series_curve_errors(const std::vector<Measurement>& points,
                                       const std::function<bool(const Measurement&)>& keep) {
  RelativeErrors e;
  double sum = 0.0;
  for (const SeriesPoints& by_m : gemm_series(points)) {
    std::vector<const Measurement*> kept;
    for (const auto& [m, at] : by_m) {
      for (const Measurement* p : at) {
        if (!keep || keep(*p)) kept.push_back(p);
      }
    }
    if (kept.empty()) continue;
    // Knots every half octave of M from the smallest kept M; the last one at the largest.
    const double x_min = std::log2(static_cast<double>(kept.front()->op.gemm.m));
    const double x_max = std::log2(static_cast<double>(kept.back()->op.gemm.m));
    std::vector<double> knots;
    for (double x = x_min; x < x_max - 1e-9; x += 0.5) knots.push_back(x);
    knots.push_back(x_max);
    if (knots.size() < 2) knots.push_back(x_max + 0.5);
    // Least squares in relative error, sum((curve(x_i) / t_i - 1)^2): with hat functions the normal
    // equations are tridiagonal and positive definite (Thomas algorithm). A knot no point touches
    // gets a tiny ridge so the system stays solvable.
    const size_t n = knots.size();
    std::vector<double> diag(n, 0.0), off(n - 1, 0.0), rhs(n, 0.0);
    for (const Measurement* p : kept) {
      const auto [i, w] = hat(knots, std::log2(static_cast<double>(p->op.gemm.m)));
      const double inv = 1.0 / p->seconds;
      diag[i] += (1 - w) * (1 - w) * inv * inv;
      diag[i + 1] += w * w * inv * inv;
      off[i] += (1 - w) * w * inv * inv;
      rhs[i] += (1 - w) * inv;
      rhs[i + 1] += w * inv;
    }
    const double ridge = 1e-12 * *std::max_element(diag.begin(), diag.end());
    for (double& d : diag) d += ridge;
    const std::vector<double> value = solve_symmetric_tridiagonal(diag, off, rhs);
    for (const Measurement* p : kept) {
      const auto [i, w] = hat(knots, std::log2(static_cast<double>(p->op.gemm.m)));
      add_error(e, sum, (1 - w) * value[i] + w * value[i + 1], p->seconds);
    }
  }
  e.mape = e.points > 0 ? sum / e.points : 0.0;
  return e;
}

}  // namespace rlsim
