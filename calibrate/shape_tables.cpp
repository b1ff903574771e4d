// Building measured tables and scoring them on withheld token counts.
#include "calibrate/shape_tables.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "calibrate/median.h"

namespace rlsim {
namespace {

using ShapeKey = std::tuple<int, int, int64_t, int64_t, int64_t>;
/// GEMM points by shape, then by token count.
using ByShape = std::map<ShapeKey, std::map<int64_t, std::vector<const Measurement*>>>;

ByShape gemm_points_by_shape(const std::vector<Measurement>& points) {
  ByShape out;
  for (const Measurement& m : points) {
    if (m.op.op_class != OpClass::gemm && m.op.op_class != OpClass::grouped_gemm) continue;
    const GemmShape& g = m.op.gemm;
    out[{static_cast<int>(m.op.op_class), static_cast<int>(m.op.compute), g.n, g.k, g.groups}][g.m].push_back(
        &m);
  }
  return out;
}

double median_seconds(const std::vector<const Measurement*>& at) {
  std::vector<double> seconds;
  seconds.reserve(at.size());
  for (const Measurement* m : at) seconds.push_back(m->seconds);
  return median(std::move(seconds));
}

MeasuredShape empty_table(const ShapeKey& key) {
  MeasuredShape t;
  t.op_class = static_cast<OpClass>(std::get<0>(key));
  t.precision = static_cast<Precision>(std::get<1>(key));
  t.n = std::get<2>(key);
  t.k = std::get<3>(key);
  t.groups = std::get<4>(key);
  return t;
}

}  // namespace

std::vector<MeasuredShape> measured_shape_tables(const std::vector<Measurement>& points) {
  std::vector<MeasuredShape> tables;
  for (const auto& [key, by_m] : gemm_points_by_shape(points)) {
    MeasuredShape t = empty_table(key);
    for (const auto& [m, at] : by_m) {
      t.tokens.push_back(m);
      t.seconds.push_back(median_seconds(at));
    }
    tables.push_back(std::move(t));
  }
  return tables;
}

RelativeErrors in_shape_held_out_errors(const std::vector<Measurement>& points,
                                        const std::function<bool(const Measurement&)>& keep) {
  RelativeErrors e;
  double sum = 0.0;
  for (const auto& [key, by_m] : gemm_points_by_shape(points)) {
    MeasuredShape kept = empty_table(key);
    std::vector<const Measurement*> withheld;
    size_t index = 0;
    for (const auto& [m, at] : by_m) {
      if (index++ % 2 == 0) {
        kept.tokens.push_back(m);
        kept.seconds.push_back(median_seconds(at));
      } else {
        withheld.insert(withheld.end(), at.begin(), at.end());
      }
    }
    for (const Measurement* p : withheld) {
      if (keep && !keep(*p)) continue;
      const auto predicted = measured_shape_seconds(kept, p->op.gemm.m);
      if (!predicted) continue;  // past the last kept token count: no neighbour above
      const double error = std::abs(*predicted - p->seconds) / p->seconds;
      sum += error;
      e.max_error = std::max(e.max_error, error);
      ++e.points;
    }
  }
  e.mape = e.points > 0 ? sum / e.points : 0.0;
  return e;
}

}  // namespace rlsim
