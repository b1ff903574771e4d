// A small line chart as SVG text, enough for sweep results: x against one or two y axes (series
// say which), optional dashed horizontal reference lines on either axis (a TPOT target), a marked
// best point, greyed (infeasible) points, scatters, and a legend below the axes that grows with the series
// instead of overlapping. Ticks sit only at the x values when they are few integers, or at named
// categories. No dependencies; the output is deterministic for the same input.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rlsim {

struct PlotSeries {
  std::string label;
  std::vector<std::pair<double, double>> points;  ///< (x, y), drawn in the order given
  bool right_axis = false;
  bool dashed = false;
  std::vector<bool> greyed;   ///< per point (empty: none): drawn hollow grey, e.g. does not fit memory
  bool markers_only = false;  ///< points not joined by a line (a scatter)
};

/// A point to point out, with what it is ("best: 41.2 s at nodes=4").
struct PlotMarker {
  double x = 0.0;
  double y = 0.0;
  bool right_axis = false;
  std::string label;
};

struct LinePlot {
  std::string title;
  std::string subtitle;  ///< a second, smaller title line (what was swept, on what)
  std::string x_label;
  /// Non-empty: x is categorical, point x = index into these names (ticks at each, named).
  std::vector<std::string> x_categories;
  std::string left_label;
  /// The left axis's top, fixed (100 for a percentage); empty: a little above the highest point.
  std::optional<double> left_top;
  std::string right_label;  ///< empty: no right axis
  std::vector<PlotSeries> series;
  std::optional<double> reference;  ///< horizontal line at this left-axis value
  std::string reference_label;
  std::optional<double> right_reference;  ///< dashed horizontal line at this right-axis value
  std::string right_reference_label;
  std::optional<PlotMarker> best;
};

std::string render_svg(const LinePlot& plot);

}  // namespace rlsim
