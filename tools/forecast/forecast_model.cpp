// A long run's lengths, samples and totals (forecast_model.h).
#include "tools/forecast/forecast_model.h"

#include <algorithm>
#include <cmath>

namespace rlsim {

double scheduled_output_mean(const std::vector<LengthSchedulePoint>& schedule, double base_mean, int step) {
  if (schedule.empty()) return base_mean;
  if (step <= schedule.front().step) return schedule.front().output_tokens_mean;
  for (size_t i = 1; i < schedule.size(); ++i) {
    const LengthSchedulePoint &a = schedule[i - 1], &b = schedule[i];
    if (step <= b.step) {
      const double t = static_cast<double>(step - a.step) / (b.step - a.step);
      return a.output_tokens_mean + t * (b.output_tokens_mean - a.output_tokens_mean);
    }
  }
  return schedule.back().output_tokens_mean;
}

std::vector<int> forecast_sample_steps(int steps, int samples,
                                       const std::vector<LengthSchedulePoint>& schedule) {
  std::vector<int> out;
  const int last = std::max(0, steps - 1);
  const int count = std::max(2, std::min(samples, steps));
  for (int i = 0; i < count; ++i) {
    out.push_back(static_cast<int>(std::lround(static_cast<double>(i) * last / (count - 1))));
  }
  for (const LengthSchedulePoint& p : schedule) {
    if (p.step > 0 && p.step < last) out.push_back(p.step);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

double interpolated(const std::vector<ForecastSample>& samples, double ForecastSample::*value, int step) {
  if (samples.empty()) return 0.0;
  if (step <= samples.front().step) return samples.front().*value;
  for (size_t i = 1; i < samples.size(); ++i) {
    const ForecastSample &a = samples[i - 1], &b = samples[i];
    if (step <= b.step) {
      const double t = static_cast<double>(step - a.step) / (b.step - a.step);
      return a.*value + t * (b.*value - a.*value);
    }
  }
  return samples.back().*value;
}

ForecastTotals forecast_totals(const std::vector<ForecastSample>& samples, int steps,
                               const RunExtras& extras) {
  ForecastTotals t;
  for (int k = 0; k < steps; ++k) {
    t.step_seconds += interpolated(samples, &ForecastSample::step_s, k);
    t.usd += interpolated(samples, &ForecastSample::usd_per_step, k);
  }
  t.evaluations = extras.eval_every > 0 ? steps / extras.eval_every : 0;
  t.checkpoints = extras.checkpoint_every > 0 ? steps / extras.checkpoint_every : 0;
  t.extra_seconds = t.evaluations * extras.eval_s + t.checkpoints * extras.checkpoint_s;
  t.usd += extras.cluster_usd_per_hour * t.extra_seconds / 3600.0;
  return t;
}

std::optional<double> first_crossing(const std::vector<ForecastSample>& a, double ForecastSample::*a_value,
                                     const std::vector<ForecastSample>& b, double ForecastSample::*b_value,
                                     int steps) {
  // Both are straight between the union of their sample steps; check each stretch for a sign change.
  std::vector<int> knots;
  for (const ForecastSample& s : a) knots.push_back(s.step);
  for (const ForecastSample& s : b) knots.push_back(s.step);
  knots.push_back(0);
  knots.push_back(std::max(0, steps - 1));
  std::sort(knots.begin(), knots.end());
  knots.erase(std::unique(knots.begin(), knots.end()), knots.end());
  const auto gap = [&](int step) { return interpolated(a, a_value, step) - interpolated(b, b_value, step); };
  const double first = gap(knots.front());
  for (size_t i = 1; i < knots.size(); ++i) {
    const double g0 = gap(knots[i - 1]), g1 = gap(knots[i]);
    if (first != 0.0 && g1 * first < 0.0) {
      const double t = g0 / (g0 - g1);  // g0 still has the first's sign (or is 0)
      return knots[i - 1] + t * (knots[i] - knots[i - 1]);
    }
  }
  return std::nullopt;
}

}  // namespace rlsim
