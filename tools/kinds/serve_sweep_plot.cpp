// Building a serving sweep's plot from its table (serve_sweep_plot.h).
#include "tools/kinds/serve_sweep_plot.h"

#include <algorithm>

#include "tools/kinds/sweep_plot_frame.h"
#include "tools/report/text_format.h"

namespace rlsim {

std::optional<LinePlot> serve_sweep_plot(const SweepTable& table, const SweepManifest& manifest,
                                         const ServeWorkloadSpec* workload, const std::string& title_setup,
                                         const SweepObjective& objective) {
  const SweepPlotFrame frame(table, manifest);
  if (frame.empty()) return std::nullopt;
  // p99 where the points measured enough requests for it, else p50 (sweep.csv leaves p99 empty).
  const int p99 = table.column("ttft_p99_s");
  const bool tail = p99 >= 0 && std::any_of(frame.points().begin(), frame.points().end(), [&](long point) {
                      return !table.rows.at(point)[static_cast<size_t>(p99)].empty();
                    });
  const std::string q = tail ? "p99" : "p50";
  LinePlot plot;
  plot.title = "Serving latency vs " + frame.x_axis().path + " (" + title_setup + ")";
  plot.subtitle =
      q + " TTFT solid (left), " + q + " TPOT dashed (right)" + (tail ? "" : ": too few requests for p99");
  frame.frame(plot);
  plot.left_label = q + " TTFT (ms)";
  plot.right_label = q + " TPOT (ms)";
  // sweep.csv keeps seconds; the plot reads in milliseconds.
  plot.series = frame.series_of("ttft_" + q + "_s", "TTFT", false, false, 1e3);
  for (PlotSeries& s : frame.series_of("tpot_" + q + "_s", "TPOT", true, true, 1e3))
    plot.series.push_back(std::move(s));
  if (workload && workload->slo_ttft_s) {
    plot.reference = 1e3 * *workload->slo_ttft_s;
    plot.reference_label = "TTFT SLO " + formatted("%g ms", *plot.reference);
  }
  if (workload && workload->slo_tpot_s) {
    plot.right_reference = 1e3 * *workload->slo_tpot_s;
    plot.right_reference_label = "TPOT SLO " + formatted("%g ms", *plot.right_reference);
  }
  const int ttft = table.column("ttft_" + q + "_s");
  if (const std::optional<long> best = frame.best(objective);
      best && ttft >= 0 && !table.rows.at(*best)[static_cast<size_t>(ttft)].empty()) {
    plot.best =
        PlotMarker{frame.x_of(*best), 1e3 * table.number(*best, "ttft_" + q + "_s"), false,
                   "best by " + objective.column + " within the SLO: " + frame.values_at(*best, false)};
  }
  return plot;
}

}  // namespace rlsim
