// Alpha-beta fits of collectives.
#include "calibrate/collective_fitter.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <map>
#include <tuple>

namespace rlsim {

CollectiveFit fit_alpha_beta(const std::vector<CollectiveMeasurement>& points) {
  assert(!points.empty() && "fit_alpha_beta needs measurements");
  // Minimise sum(((alpha + beta·bytes) − t) / t)²: weighted linear least squares in (alpha, beta).
  double s11 = 0, s12 = 0, s22 = 0, y1 = 0, y2 = 0;
  CollectiveFit fit;
  fit.collective = points.front().collective;
  fit.gpus = points.front().gpus;
  fit.gpus_per_node = points.front().gpus_per_node;
  fit.min_bytes = points.front().bytes;
  fit.max_bytes = points.front().bytes;
  for (const auto& p : points) {
    const double w = 1.0 / (p.seconds * p.seconds);
    s11 += w;
    s12 += w * p.bytes;
    s22 += w * p.bytes * p.bytes;
    y1 += w * p.seconds;
    y2 += w * p.bytes * p.seconds;
    fit.min_bytes = std::min(fit.min_bytes, p.bytes);
    fit.max_bytes = std::max(fit.max_bytes, p.bytes);
  }
  const double det = s11 * s22 - s12 * s12;
  double alpha = det > 0.0 ? (y1 * s22 - y2 * s12) / det : 0.0;
  double beta = det > 0.0 ? (s11 * y2 - s12 * y1) / det : 0.0;
  if (alpha < 0.0 || beta <= 0.0) {
    // Degenerate data (one size, or times falling with size): bandwidth through the origin.
    alpha = std::max(0.0, alpha);
    double num = 0, den = 0;
    for (const auto& p : points) {
      const double w = 1.0 / (p.seconds * p.seconds);
      num += w * p.bytes * (p.seconds - alpha);
      den += w * p.bytes * p.bytes;
    }
    beta = num > 0.0 ? num / den : 1e-12;
  }
  fit.alpha_s = alpha;
  fit.bandwidth_bytes_per_s = 1.0 / beta;
  return fit;
}

std::vector<CollectiveFit> fit_collectives(const std::vector<CollectiveMeasurement>& points) {
  std::map<std::tuple<Collective, int, int>, std::vector<CollectiveMeasurement>> groups;
  for (const auto& p : points) groups[{p.collective, p.gpus, p.gpus_per_node}].push_back(p);
  std::vector<CollectiveFit> fits;
  for (auto& [key, group] : groups) {
    std::stable_sort(group.begin(), group.end(),
                     [](const auto& a, const auto& b) { return a.bytes < b.bytes; });
    std::vector<CollectiveMeasurement> train, held_out;
    for (size_t i = 0; i < group.size(); ++i) (i % 5 == 2 ? held_out : train).push_back(group[i]);
    if (train.empty()) train = group;
    const CollectiveFit trial = fit_alpha_beta(train);
    CollectiveFit fit = fit_alpha_beta(group);
    double sum = 0.0;
    for (const auto& p : held_out) {
      const double error = std::abs(collective_seconds(trial, trial.gpus, p.bytes) - p.seconds) / p.seconds;
      sum += error;
      fit.error.held_out_max_error = std::max(fit.error.held_out_max_error, error);
    }
    fit.error.fit_points = static_cast<int>(group.size());
    fit.error.held_out_points = static_cast<int>(held_out.size());
    fit.error.held_out_mape = held_out.empty() ? 0.0 : sum / static_cast<double>(held_out.size());
    fits.push_back(std::move(fit));
  }
  return fits;
}

}  // namespace rlsim
