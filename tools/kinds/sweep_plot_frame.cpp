// The axis, points and series a sweep's plot is drawn from (sweep_plot_frame.h).
#include "tools/kinds/sweep_plot_frame.h"

#include <algorithm>
#include <cstdlib>
#include <map>

#include "tools/cli/field_reference.h"

namespace rlsim {
namespace {

bool numeric(const std::string& text) {
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size();
}

std::string cell(const SweepTable& table, long point, const std::string& column) {
  const int k = table.column(column);
  if (k < 0) return "";
  const auto& cells = table.rows.at(point);
  return static_cast<size_t>(k) < cells.size() ? cells[static_cast<size_t>(k)] : "";
}

/// The last part of a swept path ("rollout.max_batch" -> "max_batch"), for short legend entries.
std::string short_name(const std::string& path) {
  const size_t dot = path.rfind('.');
  return dot == std::string::npos ? path : path.substr(dot + 1);
}

}  // namespace

SweepPlotFrame::SweepPlotFrame(const SweepTable& table, const SweepManifest& manifest)
    : table_(table), manifest_(manifest) {
  if (manifest.axes.empty()) return;
  for (size_t i = 0; i < manifest.axes.size(); ++i) {
    const auto& values = manifest.axes[i].values;
    if (std::all_of(values.begin(), values.end(), numeric)) {
      x_index_ = i;
      break;
    }
  }
  const auto& values = x_axis().values;
  categorical_ = !std::all_of(values.begin(), values.end(), numeric);
  for (const auto& [point, cells] : table.rows) {
    if (sweep_point_feasible(table, point))
      points_.push_back(point);
    else
      ++not_run_;
  }
  std::stable_sort(points_.begin(), points_.end(), [&](long a, long b) { return x_of(a) < x_of(b); });
}

double SweepPlotFrame::x_of(long point) const {
  const SweepAxis& axis = x_axis();
  if (!categorical_) return table_.number(point, axis.path);
  const std::string value = cell(table_, point, axis.path);
  return static_cast<double>(std::find(axis.values.begin(), axis.values.end(), value) - axis.values.begin());
}

std::string SweepPlotFrame::values_at(long point, bool but_x) const {
  std::string out;
  for (size_t i = 0; i < manifest_.axes.size(); ++i) {
    if (but_x && i == x_index_) continue;
    out += (out.empty() ? "" : ", ") + short_name(manifest_.axes[i].path) + "=" +
           cell(table_, point, manifest_.axes[i].path);
  }
  return out;
}

std::vector<PlotSeries> SweepPlotFrame::series_of(const std::string& column, const std::string& label,
                                                  bool right_axis, bool dashed, double scale) const {
  std::map<std::string, PlotSeries> by_rest;
  for (long point : points_) {
    if (cell(table_, point, column).empty()) continue;  // no figure (too few samples): a gap, not 0
    const std::string rest = values_at(point, true);
    PlotSeries& series = by_rest[rest];
    series.label = rest.empty() ? label : (label.empty() ? rest : label + ", " + rest);
    series.right_axis = right_axis;
    series.dashed = dashed;
    series.points.emplace_back(x_of(point), scale * table_.number(point, column));
  }
  std::vector<PlotSeries> out;
  for (auto& [rest, series] : by_rest) out.push_back(std::move(series));
  return out;
}

void SweepPlotFrame::frame(LinePlot& plot) const {
  plot.x_label = field_axis_label(x_axis().path);
  if (categorical_) plot.x_categories = x_axis().values;
  if (not_run_ > 0)
    plot.subtitle += "; " + std::to_string(not_run_) + " point" + (not_run_ > 1 ? "s" : "") +
                     " not simulated (invalid, see sweep.csv): not drawn";
}

std::optional<long> SweepPlotFrame::best(const SweepObjective& objective) const {
  const std::vector<long> ranked = ranked_sweep_points(table_, objective);
  if (ranked.empty()) return std::nullopt;
  return ranked.front();
}

}  // namespace rlsim
