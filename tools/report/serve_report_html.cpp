// The serving report page: summary, latency distributions, inputs.
#include "tools/report/serve_report_html.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "models/units.h"
#include "tools/report/html_report.h"
#include "tools/report/serve_report.h"
#include "tools/report/svg_plot.h"

namespace rlsim {
namespace {

/// The share of `values_ms` at or below each value, as at most 200 points of a step curve.
PlotSeries distribution(const std::string& label, std::vector<double> values_ms) {
  PlotSeries series{label, {}, false, false, {}};
  std::sort(values_ms.begin(), values_ms.end());
  const size_t n = values_ms.size();
  const size_t stride = std::max<size_t>(1, n / 200);
  for (size_t i = 0; i < n; i += stride) {
    series.points.emplace_back(values_ms[i], 100.0 * static_cast<double>(i + 1) / static_cast<double>(n));
  }
  if (n > 0 && series.points.back().first != values_ms.back())
    series.points.emplace_back(values_ms.back(), 100.0);
  return series;
}

std::string latency_plot(const std::string& what, const std::vector<double>& values_ms,
                         const std::optional<double>& slo_s, const std::string& setup) {
  LinePlot plot;
  plot.title = what + " of the steady-state requests";
  plot.subtitle = setup + (slo_s ? "; SLO " + format_quantity(*slo_s, Quantity::duration) : std::string());
  plot.x_label = what + " (ms)";
  plot.left_label = "requests at or below (%)";
  plot.left_top = 100.0;
  plot.series.push_back(distribution(what, values_ms));
  return render_svg(plot);
}

}  // namespace

std::string serve_report_html(const ServeScenario& scenario, const ServeResult& result,
                              const std::string& summary, const std::string& resolved_yaml) {
  const ServeWorkloadSpec& w = scenario.workload;
  std::vector<double> ttft_ms, tpot_ms;
  for (size_t i = static_cast<size_t>(result.metrics.warmup_excluded); i < result.requests.size(); ++i) {
    const RequestLatency latency = latency_of(result.requests[i]);
    ttft_ms.push_back(1e3 * latency.ttft_s);
    if (latency.tpot_s) tpot_ms.push_back(1e3 * *latency.tpot_s);
  }
  const Scenario& s = scenario.deployment;
  const PoolSpec& pool = *s.cluster.pool(s.rollout.pool);
  const std::string setup = s.model.name + " on " + std::to_string(pool.gpus()) + "x" + pool.card.name +
                            ", " + std::to_string(result.metrics.measured) + " requests";
  std::vector<HtmlSection> sections{{"Summary", html_pre(summary)}};
  if (!ttft_ms.empty())
    sections.emplace_back("Time to first token", latency_plot("TTFT", ttft_ms, w.slo_ttft_s, setup));
  if (!tpot_ms.empty())
    sections.emplace_back("Time per output token", latency_plot("TPOT", tpot_ms, w.slo_tpot_s, setup));
  sections.emplace_back("Inputs (resolved.yaml)", html_pre(resolved_yaml));
  return html_page("rlsim: " + s.name + " (serving)", sections);
}

}  // namespace rlsim
