// Building an RL sweep's plot from its table.
#include "tools/kinds/rl_sweep_plot.h"

#include <algorithm>
#include <cstdlib>
#include <map>

#include "tools/cli/field_reference.h"
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
namespace {

bool numeric(const std::string& text) {
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size();
}

std::string cell(const SweepTable& table, long point, const std::string& column) {
  const auto it = std::find(table.header.begin(), table.header.end(), column);
  if (it == table.header.end()) return "";
  const auto& cells = table.rows.at(point);
  const auto index = static_cast<size_t>(it - table.header.begin());
  return index < cells.size() ? cells[index] : "";
}

/// The last part of a swept path ("rollout.max_batch" -> "max_batch"), for short legend entries.
std::string short_name(const std::string& path) {
  const size_t dot = path.rfind('.');
  return dot == std::string::npos ? path : path.substr(dot + 1);
}

}  // namespace

std::optional<LinePlot> rl_sweep_plot(const SweepTable& table, const SweepManifest& manifest,
                                      const SweptSetup& setup) {
  if (manifest.axes.empty() || table.rows.empty()) return std::nullopt;
  // x: the first axis whose values are all numbers, else the first axis as categories.
  size_t x_index = 0;
  for (size_t i = 0; i < manifest.axes.size(); ++i) {
    const auto& values = manifest.axes[i].values;
    if (std::all_of(values.begin(), values.end(), numeric)) {
      x_index = i;
      break;
    }
  }
  const SweepAxis& axis = manifest.axes[x_index];
  const bool categorical = !std::all_of(axis.values.begin(), axis.values.end(), numeric);
  auto x_of = [&](long point) {
    if (!categorical) return table.number(point, axis.path);
    const std::string value = cell(table, point, axis.path);
    return static_cast<double>(std::find(axis.values.begin(), axis.values.end(), value) -
                               axis.values.begin());
  };

  LinePlot plot;
  std::string swept;
  for (const auto& a : manifest.axes) swept += (swept.empty() ? "" : ", ") + a.path;
  plot.title = "RL step time vs " + axis.path + " (" + setup.model + ")";
  plot.subtitle = "base " + setup.cards + "; swept " + swept;
  plot.x_label = field_axis_label(axis.path);
  if (categorical) plot.x_categories = axis.values;
  plot.left_label = "steady-state step time (s)";

  // One series per combination of the other axes' values, in grid order.
  std::map<std::string, PlotSeries> by_rest;
  std::vector<std::string> order;
  // Only points that ran have figures: an invalid one (--skip-invalid: over memory, or refused) is a
  // gap, never a value of 0, and the subtitle counts them.
  std::vector<long> points;
  size_t not_run = 0;
  for (const auto& [point, cells] : table.rows) {
    if (sweep_point_feasible(table, point))
      points.push_back(point);
    else
      ++not_run;
  }
  if (not_run > 0)
    plot.subtitle += "; " + std::to_string(not_run) + " point" + (not_run > 1 ? "s" : "") +
                     " not simulated (invalid, see sweep.csv): not drawn";
  std::stable_sort(points.begin(), points.end(), [&](long a, long b) { return x_of(a) < x_of(b); });
  for (long point : points) {
    std::string rest;
    for (size_t i = 0; i < manifest.axes.size(); ++i) {
      if (i == x_index) continue;
      rest += (rest.empty() ? "" : ", ") + short_name(manifest.axes[i].path) + "=" +
              cell(table, point, manifest.axes[i].path);
    }
    if (!by_rest.count(rest)) order.push_back(rest);
    PlotSeries& series = by_rest[rest];
    series.label = rest.empty() ? "step time" : rest;
    series.points.emplace_back(x_of(point), table.number(point, "step_time_s"));
  }
  std::sort(order.begin(), order.end());
  for (const auto& rest : order) plot.series.push_back(by_rest[rest]);
  if (manifest.axes.size() == 1) {
    // One axis: throughput on the right, dashed.
    plot.right_label = "samples/s, dashed";
    PlotSeries samples{"samples/s", {}, true, true, {}};
    for (long point : points) samples.points.emplace_back(x_of(point), table.number(point, "samples_per_s"));
    plot.series.push_back(std::move(samples));
    plot.left_label += ", solid";
  }

  std::optional<long> best;
  for (long point : points) {
    if (!best || table.number(point, "step_time_s") < table.number(*best, "step_time_s")) best = point;
  }
  if (best) {
    std::string where;
    for (const auto& a : manifest.axes)
      where += (where.empty() ? "" : ", ") + short_name(a.path) + "=" + cell(table, *best, a.path);
    const double step_s = table.number(*best, "step_time_s");
    plot.best = PlotMarker{x_of(*best), step_s, false, "best: " + readable_duration(step_s) + " at " + where};
  }
  return plot;
}

}  // namespace rlsim
