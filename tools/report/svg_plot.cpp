// Rendering a LinePlot as SVG.
#include "tools/report/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "tools/report/text_format.h"

namespace rlsim {
namespace {

constexpr double kWidth = 820, kPlotHeight = 390, kLeft = 80, kRight = 80, kTop = 64, kLegendRow = 18;
const char* const kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                               "#9467bd", "#8c564b", "#e377c2", "#17becf"};

std::string num(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", v);
  return buffer;
}

std::string tick_text(double v) {
  char buffer[32];
  if (v == 0.0) v = 0.0;  // a tick computed as -0 (from an axis padded below 0) reads 0
  std::snprintf(buffer, sizeof buffer, "%g", v);
  return buffer;
}

/// A step of 1, 2 or 5 × 10^k giving about five ticks over [0, top].
double nice_step(double top) {
  const double raw = top / 5.0;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * power >= raw) return m * power;
  }
  return 10.0 * power;
}

struct Axis {
  double lo = 0.0, hi = 1.0, step = 0.2;
  double map(double v, double from, double to) const { return from + (v - lo) / (hi - lo) * (to - from); }
};

Axis value_axis(double top) {
  Axis axis;
  if (!(top > 0.0)) top = 1.0;
  axis.step = nice_step(top * 1.05);
  axis.hi = std::ceil(top * 1.05 / axis.step) * axis.step;
  return axis;
}

/// An axis from 0 to exactly `top` (a percentage ends at 100, not at the next step past it).
Axis fixed_axis(double top) {
  Axis axis;
  axis.step = nice_step(top);
  axis.hi = top;
  return axis;
}

/// The x values where ticks go: each category, or each distinct value when they are at most 12
/// integers (no 4.5 nodes), else evenly spaced nice steps.
std::vector<std::pair<double, std::string>> x_ticks(const LinePlot& plot, const Axis& x) {
  std::vector<std::pair<double, std::string>> ticks;
  if (!plot.x_categories.empty()) {
    for (size_t i = 0; i < plot.x_categories.size(); ++i)
      ticks.emplace_back(static_cast<double>(i), plot.x_categories[i]);
    return ticks;
  }
  std::vector<double> values;
  bool integers = true;
  for (const auto& s : plot.series) {
    for (const auto& [vx, vy] : s.points) {
      integers = integers && vx == std::round(vx);
      if (std::find(values.begin(), values.end(), vx) == values.end()) values.push_back(vx);
    }
  }
  if (integers && !values.empty() && values.size() <= 12) {
    std::sort(values.begin(), values.end());
    for (double v : values) ticks.emplace_back(v, tick_text(v));
    return ticks;
  }
  for (double v = std::ceil(x.lo / x.step) * x.step; v <= x.hi + 1e-9 * x.step; v += x.step)
    ticks.emplace_back(v, tick_text(v));
  return ticks;
}

}  // namespace

std::string render_svg(const LinePlot& plot) {
  double x_lo = INFINITY, x_hi = -INFINITY, left_top = plot.reference.value_or(0.0),
         right_top = plot.right_reference.value_or(0.0);
  for (const auto& s : plot.series) {
    for (const auto& [x, y] : s.points) {
      x_lo = std::min(x_lo, x);
      x_hi = std::max(x_hi, x);
      (s.right_axis ? right_top : left_top) = std::max(s.right_axis ? right_top : left_top, y);
    }
  }
  if (!plot.x_categories.empty()) {
    x_lo = 0.0;
    x_hi = static_cast<double>(plot.x_categories.size() - 1);
  }
  if (!(x_hi > x_lo)) {
    x_lo = std::isfinite(x_lo) ? x_lo - 1.0 : 0.0;
    x_hi = x_lo + 2.0;
  }
  // A margin of half a step either side, so the end points are not on the frame.
  const double pad = !plot.x_categories.empty() ? 0.5 : 0.04 * (x_hi - x_lo);
  Axis x{x_lo - pad, x_hi + pad, nice_step(x_hi - x_lo)};
  const Axis left = plot.left_top ? fixed_axis(*plot.left_top) : value_axis(left_top),
             right = value_axis(right_top);
  // Legend: two entries per row below the x label; the figure grows with it.
  const double legend_rows = std::ceil(static_cast<double>(plot.series.size() + (plot.best ? 1 : 0)) / 2.0);
  const double height = kTop + kPlotHeight + legend_rows * kLegendRow + 6;
  const double px0 = kLeft, px1 = kWidth - kRight, py0 = kTop + kPlotHeight - 60, py1 = kTop;
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(kWidth) + "\" height=\"" +
                    num(height) + "\" viewBox=\"0 0 " + num(kWidth) + " " + num(height) +
                    "\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" "
                    "fill=\"white\"/>\n";
  svg += "<text x=\"" + num(kWidth / 2) + "\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">" +
         xml_escape(plot.title) + "</text>\n";
  if (!plot.subtitle.empty()) {
    svg += "<text x=\"" + num(kWidth / 2) + "\" y=\"44\" text-anchor=\"middle\" fill=\"#555\">" +
           xml_escape(plot.subtitle) + "</text>\n";
  }
  svg += "<rect x=\"" + num(px0) + "\" y=\"" + num(py1) + "\" width=\"" + num(px1 - px0) + "\" height=\"" +
         num(py0 - py1) + "\" fill=\"none\" stroke=\"#444\"/>\n";
  // Grid and ticks.
  for (const auto& [v, label] : x_ticks(plot, x)) {
    const double px = x.map(v, px0, px1);
    svg += "<line x1=\"" + num(px) + "\" y1=\"" + num(py0) + "\" x2=\"" + num(px) + "\" y2=\"" + num(py1) +
           "\" stroke=\"#eee\"/>";
    svg += "<text x=\"" + num(px) + "\" y=\"" + num(py0 + 16) + "\" text-anchor=\"middle\">" +
           xml_escape(label) + "</text>\n";
  }
  for (double v = 0.0; v <= left.hi + 1e-9 * left.step; v += left.step) {
    const double py = left.map(v, py0, py1);
    svg += "<line x1=\"" + num(px0) + "\" y1=\"" + num(py) + "\" x2=\"" + num(px1) + "\" y2=\"" + num(py) +
           "\" stroke=\"#eee\"/>";
    svg += "<text x=\"" + num(px0 - 6) + "\" y=\"" + num(py + 4) + "\" text-anchor=\"end\">" + tick_text(v) +
           "</text>\n";
  }
  if (!plot.right_label.empty()) {
    for (double v = 0.0; v <= right.hi + 1e-9 * right.step; v += right.step) {
      const double py = right.map(v, py0, py1);
      svg += "<text x=\"" + num(px1 + 6) + "\" y=\"" + num(py + 4) + "\">" + tick_text(v) + "</text>\n";
    }
    svg += "<text transform=\"translate(" + num(kWidth - 20) + "," + num((py0 + py1) / 2) +
           ") rotate(90)\" text-anchor=\"middle\">" + xml_escape(plot.right_label) + "</text>\n";
  }
  svg += "<text x=\"" + num((px0 + px1) / 2) + "\" y=\"" + num(py0 + 36) + "\" text-anchor=\"middle\">" +
         xml_escape(plot.x_label) + "</text>\n";
  svg += "<text transform=\"translate(22," + num((py0 + py1) / 2) +
         ") rotate(-90)\" text-anchor=\"middle\">" + xml_escape(plot.left_label) + "</text>\n";
  if (plot.reference) {
    const double py = left.map(*plot.reference, py0, py1);
    svg += "<line x1=\"" + num(px0) + "\" y1=\"" + num(py) + "\" x2=\"" + num(px1) + "\" y2=\"" + num(py) +
           "\" stroke=\"#000\" stroke-dasharray=\"6,4\"/>";
    svg += "<text x=\"" + num(px0 + 6) + "\" y=\"" + num(py - 5) + "\">" + xml_escape(plot.reference_label) +
           "</text>\n";
  }
  if (plot.right_reference && !plot.right_label.empty()) {
    const double py = right.map(*plot.right_reference, py0, py1);
    svg += "<line x1=\"" + num(px0) + "\" y1=\"" + num(py) + "\" x2=\"" + num(px1) + "\" y2=\"" + num(py) +
           "\" stroke=\"#000\" stroke-dasharray=\"2,3\"/>";
    svg += "<text x=\"" + num(px1 - 6) + "\" y=\"" + num(py - 5) + "\" text-anchor=\"end\">" +
           xml_escape(plot.right_reference_label) + "</text>\n";
  }
  // Series and legend.
  const double legend_top = py0 + 60;
  auto legend_at = [&](size_t entry) {
    return std::make_pair(px0 + static_cast<double>(entry % 2) * 340.0,
                          legend_top + static_cast<double>(entry / 2) * kLegendRow);
  };
  for (size_t s = 0; s < plot.series.size(); ++s) {
    const PlotSeries& series = plot.series[s];
    const Axis& y = series.right_axis ? right : left;
    const std::string color = kColors[s % (sizeof kColors / sizeof kColors[0])];
    std::string points;
    for (const auto& [px, py] : series.points)
      points += num(x.map(px, px0, px1)) + "," + num(y.map(py, py0, py1)) + " ";
    if (!series.markers_only) {
      svg += "<polyline fill=\"none\" stroke=\"" + color + "\" stroke-width=\"2\"" +
             (series.dashed ? " stroke-dasharray=\"3,3\"" : "") + " points=\"" + points + "\"/>\n";
    }
    for (size_t i = 0; i < series.points.size(); ++i) {
      const auto& [px, py] = series.points[i];
      const bool grey = i < series.greyed.size() && series.greyed[i];
      svg += "<circle cx=\"" + num(x.map(px, px0, px1)) + "\" cy=\"" + num(y.map(py, py0, py1)) + "\" r=\"" +
             (grey ? "4\" fill=\"white\" stroke=\"#9e9e9e\" stroke-width=\"1.5\"/>"
                   : "3\" fill=\"" + color + "\"/>");
    }
    const auto [lx, ly] = legend_at(s);
    if (series.markers_only) {
      const bool all_grey = !series.greyed.empty() &&
                            std::all_of(series.greyed.begin(), series.greyed.end(), [](bool g) { return g; });
      svg += "\n<circle cx=\"" + num(lx + 12) + "\" cy=\"" + num(ly) + "\" r=\"" +
             (all_grey ? "4\" fill=\"white\" stroke=\"#9e9e9e\" stroke-width=\"1.5\"/>"
                       : "3\" fill=\"" + color + "\"/>");
    } else {
      svg += "\n<line x1=\"" + num(lx) + "\" y1=\"" + num(ly) + "\" x2=\"" + num(lx + 24) + "\" y2=\"" +
             num(ly) + "\" stroke=\"" + color + "\" stroke-width=\"2\"" +
             (series.dashed ? " stroke-dasharray=\"3,3\"" : "") + "/>";
    }
    svg += "<text x=\"" + num(lx + 30) + "\" y=\"" + num(ly + 4) + "\">" + xml_escape(series.label) +
           "</text>\n";
  }
  if (plot.best) {
    const Axis& y = plot.best->right_axis ? right : left;
    const double bx = x.map(plot.best->x, px0, px1), by = y.map(plot.best->y, py0, py1);
    svg += "<circle cx=\"" + num(bx) + "\" cy=\"" + num(by) +
           "\" r=\"8\" fill=\"none\" stroke=\"#000\" stroke-width=\"2\"><title>" +
           xml_escape(plot.best->label) + "</title></circle>\n";
    const auto [lx, ly] = legend_at(plot.series.size());
    svg += "<circle cx=\"" + num(lx + 12) + "\" cy=\"" + num(ly) +
           "\" r=\"6\" fill=\"none\" stroke=\"#000\" stroke-width=\"2\"/><text x=\"" + num(lx + 30) +
           "\" y=\"" + num(ly + 4) + "\">" + xml_escape(plot.best->label) + "</text>\n";
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace rlsim
