// Building an RL sweep's plot from its table.
#include "tools/kinds/rl_sweep_plot.h"

#include "tools/kinds/sweep_plot_frame.h"
#include "tools/report/text_format.h"

namespace rlsim {

SweptSetup swept_setup_of(const std::string& model, const ClusterSpec& cluster) {
  SweptSetup setup{model, ""};
  for (const auto& pool : cluster.pools) {
    setup.cards += (setup.cards.empty() ? "" : " + ") + pool.name + " " + std::to_string(pool.gpus()) + "x" +
                   pool.card.name;
  }
  return setup;
}
std::optional<LinePlot> rl_sweep_plot(const SweepTable& table, const SweepManifest& manifest,
                                      const SweptSetup& setup, const SweepObjective& objective) {
  const SweepPlotFrame frame(table, manifest);
  if (frame.empty()) return std::nullopt;
  LinePlot plot;
  std::string swept;
  for (const auto& a : manifest.axes) swept += (swept.empty() ? "" : ", ") + a.path;
  plot.title = "RL step time vs " + frame.x_axis().path + " (" + setup.model + ")";
  plot.subtitle = "base " + setup.cards + "; swept " + swept;
  frame.frame(plot);
  plot.left_label = "steady-state step time (s)";
  plot.series = frame.series_of("step_time_s", "step time", false, false);
  if (manifest.axes.size() == 1) {
    // One axis: throughput on the right, dashed.
    plot.right_label = "samples/s, dashed";
    for (PlotSeries& s : frame.series_of("samples_per_s", "samples/s", true, true))
      plot.series.push_back(std::move(s));
    plot.left_label += ", solid";
  }
  // The ring marks the point the summary names best, on its step time.
  if (const std::optional<long> best = frame.best(objective)) {
    const double step_s = table.number(*best, "step_time_s");
    plot.best = PlotMarker{frame.x_of(*best), step_s, false,
                           "best by " + objective.column + ": " + readable_duration(step_s) + " at " +
                               frame.values_at(*best, false)};
  }
  return plot;
}

}  // namespace rlsim
