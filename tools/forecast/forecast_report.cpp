// `rlsim forecast`'s text, forecast.csv and forecast.svg (forecast_report.h).
#include "tools/forecast/forecast_report.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "models/units.h"
#include "tools/report/svg_plot.h"
#include "tools/report/text_format.h"

namespace rlsim {
namespace {

std::string hours(double seconds) { return formatted("%.1f h", seconds / 3600.0); }

std::string thousands(double value) {
  const std::string digits = formatted("%.0f", value);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0 && digits[i - 1] != '-') out += ',';
    out += digits[i];
  }
  return out;
}

/// "training until step ~220, rollout from there" or "rollout throughout".
std::string bottleneck_line(const PolicyForecast& p, int steps) {
  const auto at = [&](int step, double ForecastSample::*value) {
    return interpolated(p.samples, value, step);
  };
  const bool rollout_first = at(0, &ForecastSample::rollout_s) >= at(0, &ForecastSample::train_s);
  const std::string first = rollout_first ? "rollout" : "training",
                    other = rollout_first ? "training" : "rollout";
  const std::string ratio =
      formatted("rollout %.2fx training at step 0",
                at(0, &ForecastSample::rollout_s) / std::max(1e-12, at(0, &ForecastSample::train_s))) +
      formatted(", %.2fx", at(steps - 1, &ForecastSample::rollout_s) /
                               std::max(1e-12, at(steps - 1, &ForecastSample::train_s))) +
      " at step " + std::to_string(steps - 1);
  const std::optional<double> cross =
      first_crossing(p.samples, &ForecastSample::rollout_s, p.samples, &ForecastSample::train_s, steps);
  if (!cross) return first + " takes longer throughout (" + ratio + ")";
  return first + " takes longer until step ~" + formatted("%.0f", std::ceil(*cross)) + ", " + other +
         " from there (" + ratio + ")";
}

}  // namespace

std::string forecast_text(const std::vector<PolicyForecast>& policies, const ForecastReportInput& in) {
  std::string text =
      "rlsim forecast: " + in.scenario_name + " (model " + in.model + "), " + thousands(in.steps) + " steps";
  if (!policies.empty() && !policies.front().samples.empty()) {
    const auto& s = policies.front().samples;
    text += in.scheduled ? ", mean response " + thousands(s.front().output_tokens_mean) + " -> " +
                               thousands(s.back().output_tokens_mean) + " tokens (workload.length_schedule)"
                         : ", mean response " + thousands(s.front().output_tokens_mean) +
                               " tokens throughout (no workload.length_schedule)";
  }
  text += "\n";
  size_t runs = 0;
  std::string at;
  for (const PolicyForecast& p : policies) runs += p.samples.size();
  if (!policies.empty()) {
    for (const ForecastSample& s : policies.front().samples)
      at += (at.empty() ? "" : ", ") + std::to_string(s.step);
  }
  text += "  simulated   " + std::to_string(runs) + " runs: steps " + at +
          (policies.size() > 1 ? " under each policy" : "") +
          "; every other step is interpolated between its neighbours\n";
  if (in.extras.eval_every > 0 || in.extras.checkpoint_every > 0) {
    const ForecastTotals& t = policies.front().totals;
    text += "  also        " + std::to_string(t.evaluations) + " evaluations of " +
            readable_duration(in.extras.eval_s) + ", " + std::to_string(t.checkpoints) +
            " checkpoint saves of " + readable_duration(in.extras.checkpoint_s) + " (" +
            hours(t.extra_seconds) + ", GPUs paid for)\n";
  }
  text += "  " + padded("policy", 15) + padded("hours", 9) + padded("USD", 11) + padded("mean step", 11) +
          "first -> last step\n";
  for (const PolicyForecast& p : policies) {
    text += "  " + padded(p.policy, 15) + padded(formatted("%.1f", p.totals.seconds() / 3600.0), 9) +
            padded(thousands(p.totals.usd), 11) +
            padded(readable_duration(p.totals.step_seconds / in.steps), 11) +
            readable_duration(p.samples.front().step_s) + " -> " +
            readable_duration(p.samples.back().step_s) + "\n";
  }
  for (const PolicyForecast& p : policies)
    text += "bottleneck (" + p.policy + "): " + bottleneck_line(p, in.steps) + "\n";
  // Where two policies' order changes along the run.
  bool crossed = false;
  for (size_t i = 0; i < policies.size(); ++i) {
    for (size_t k = i + 1; k < policies.size(); ++k) {
      const PolicyForecast &a = policies[i], &b = policies[k];
      const std::optional<double> cross =
          first_crossing(a.samples, &ForecastSample::step_s, b.samples, &ForecastSample::step_s, in.steps);
      if (!cross) continue;
      crossed = true;
      const bool a_first = a.samples.front().step_s < b.samples.front().step_s;
      const PolicyForecast &early = a_first ? a : b, &late = a_first ? b : a;
      text += "ranking: " + late.policy + " overtakes " + early.policy + " from step ~" +
              formatted("%.0f", std::ceil(*cross)) + "\n";
    }
  }
  if (policies.size() > 1 && !crossed) text += "ranking: the policies keep their order all along\n";
  return text;
}

std::string forecast_json(const std::vector<PolicyForecast>& policies, const ForecastReportInput& in) {
  nlohmann::json out{
      {"scenario", in.scenario_name}, {"steps", in.steps}, {"policies", nlohmann::json::array()}};
  for (const PolicyForecast& p : policies) {
    out["policies"].push_back({{"policy", p.policy},
                               {"hours", p.totals.seconds() / 3600.0},
                               {"usd", p.totals.usd},
                               {"step_seconds", p.totals.step_seconds},
                               {"extra_seconds", p.totals.extra_seconds},
                               {"evaluations", p.totals.evaluations},
                               {"checkpoints", p.totals.checkpoints},
                               {"simulated_steps", p.samples.size()}});
  }
  return out.dump(2) + "\n";
}

std::string forecast_csv(const std::vector<PolicyForecast>& policies) {
  std::string csv = "policy,step,output_tokens_mean,steady_step_s,usd_per_step,rollout_s,train_and_sync_s\n";
  for (const PolicyForecast& p : policies) {
    for (const ForecastSample& s : p.samples) {
      csv += p.policy + "," + std::to_string(s.step) + "," + format_number(s.output_tokens_mean) + "," +
             format_number(s.step_s) + "," + format_number(s.usd_per_step) + "," +
             format_number(s.rollout_s) + "," + format_number(s.train_s) + "\n";
    }
  }
  return csv;
}

std::string forecast_svg(const std::vector<PolicyForecast>& policies, const ForecastReportInput& in) {
  LinePlot plot;
  plot.title = "rlsim forecast: " + in.scenario_name + " (" + in.model + ")";
  plot.subtitle = "steady step time along a " + thousands(in.steps) +
                  "-step run; straight between the simulated steps (dots)";
  plot.x_label = "training step";
  plot.left_label = "steady step time (s)";
  for (const PolicyForecast& p : policies) {
    PlotSeries series;
    series.label = p.policy;
    for (const ForecastSample& s : p.samples) series.points.emplace_back(s.step, s.step_s);
    plot.series.push_back(std::move(series));
  }
  return render_svg(plot);
}

}  // namespace rlsim
