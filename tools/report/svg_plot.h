// A small line chart as SVG text, enough for sweep results: x against one or two y axes (series
// say which), optional dashed horizontal reference line on the left axis (a TPOT target), legend.
// No dependencies; the output is deterministic for the same input.
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
};

struct LinePlot {
  std::string title;
  std::string x_label;
  std::string left_label;
  std::string right_label;  ///< empty: no right axis
  std::vector<PlotSeries> series;
  std::optional<double> reference;  ///< horizontal line at this left-axis value
  std::string reference_label;
};

std::string render_svg(const LinePlot& plot);

}  // namespace rlsim
