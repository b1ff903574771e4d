// Fitting a whole profile: per op class and precision, held-out scoring, then the final fit.
#include "calibrate/profile_fitter.h"

#include <algorithm>
#include <map>
#include <set>

#include "calibrate/collective_fitter.h"
#include "calibrate/engine_allreduce_fitter.h"
#include "calibrate/fit_error.h"
#include "calibrate/kernel_fitter.h"
#include "calibrate/shape_tables.h"

namespace rlsim {
namespace {

struct Fold {
  std::vector<Measurement> train, held_out;
};

/// Leave-one-group-out folds when there are several groups, else one fold holding out every fifth point.
std::vector<Fold> make_folds(const std::vector<Measurement>& points) {
  std::set<std::string> groups;
  for (const auto& p : points) groups.insert(p.group);
  std::vector<Fold> folds;
  if (groups.size() >= 2) {
    for (const auto& g : groups) {
      Fold f;
      for (const auto& p : points) (p.group == g ? f.held_out : f.train).push_back(p);
      folds.push_back(std::move(f));
    }
  } else {
    Fold f;
    for (size_t i = 0; i < points.size(); ++i) (i % 5 == 2 ? f.held_out : f.train).push_back(points[i]);
    if (f.train.empty()) f.train = points;
    folds.push_back(std::move(f));
  }
  return folds;
}

OpClassProfile fit_op_class(const std::vector<Measurement>& points, const CalibrationSettings& s) {
  OpClassProfile profile;
  profile.op_class = points.front().op.op_class;
  profile.precision = points.front().op.compute;
  double sum = 0.0, baseline_sum = 0.0, datasheet_sum = 0.0;
  for (const Fold& fold : make_folds(points)) {
    if (fold.held_out.empty()) continue;
    const KernelFit trial = fit_kernel(fold.train, s.card, s.sm_count, s.l2_bytes);
    const BaselineRoofline baseline = fit_baseline_roofline(fold.train, s.card);
    const auto e = score_points(fold.held_out, [&](const Op& op) {
      return kernel_seconds(trial, op, s.card, s.sm_count, s.l2_bytes);
    });
    const auto b = score_points(
        fold.held_out, [&](const Op& op) { return baseline_roofline_seconds(baseline, op, s.card); });
    const auto d =
        score_points(fold.held_out, [&](const Op& op) { return datasheet_roofline_seconds(op, s.card); });
    sum += e.mape * e.points;
    baseline_sum += b.mape * b.points;
    datasheet_sum += d.mape * d.points;
    profile.error.held_out_points += e.points;
    profile.error.held_out_max_error = std::max(profile.error.held_out_max_error, e.max_error);
  }
  if (profile.error.held_out_points > 0) {
    const double n = profile.error.held_out_points;
    profile.error.held_out_mape = sum / n;
    profile.error.baseline_held_out_mape = baseline_sum / n;
    profile.error.datasheet_held_out_mape = datasheet_sum / n;
  }
  profile.error.jitter_floor_mape = neighbour_interpolation_errors(points).mape;
  const RelativeErrors in_shape = in_shape_held_out_errors(points);
  profile.error.in_shape_held_out_points = in_shape.points;
  profile.error.in_shape_held_out_mape = in_shape.mape;
  profile.error.in_shape_held_out_max_error = in_shape.max_error;
  profile.fit = fit_kernel(points, s.card, s.sm_count, s.l2_bytes);
  profile.error.fit_points = static_cast<int>(points.size());
  return profile;
}

}  // namespace

HardwareProfile fit_profile(const MeasurementSet& measurements, const CalibrationSettings& settings) {
  HardwareProfile profile;
  profile.card = settings.card.name;
  profile.device = !settings.device.empty()       ? settings.device
                   : !measurements.device.empty() ? measurements.device
                                                  : settings.card.description;
  profile.date = !settings.date.empty()       ? settings.date
                 : !measurements.date.empty() ? measurements.date
                                              : "unknown";
  profile.sm_count = settings.sm_count;
  profile.l2_bytes = settings.l2_bytes;
  for (size_t i = 0; i < measurements.files.size(); ++i) {
    profile.sources.push_back({measurements.files[i], i < measurements.points_per_file.size()
                                                          ? measurements.points_per_file[i]
                                                          : 0});
  }
  std::map<std::pair<OpClass, Precision>, std::vector<Measurement>> by_class;
  for (const auto& p : measurements.points) by_class[{p.op.op_class, p.op.compute}].push_back(p);
  for (const auto& [key, points] : by_class) profile.ops.push_back(fit_op_class(points, settings));
  profile.collectives = fit_collectives(measurements.collectives);
  profile.engine_allreduces = engine_allreduce_tables(measurements.engine_allreduces);
  profile.measured_shapes = measured_shape_tables(measurements.points);
  return profile;
}

}  // namespace rlsim
