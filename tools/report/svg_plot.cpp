// Rendering a LinePlot as SVG.
#include "tools/report/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rlsim {
namespace {

constexpr double kWidth = 820, kHeight = 480, kLeft = 80, kRight = 80, kTop = 50, kBottom = 90;
const char* const kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                               "#9467bd", "#8c564b", "#e377c2", "#17becf"};

std::string num(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", v);
  return buffer;
}

std::string tick_text(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", v);
  return buffer;
}

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else
      out += c;
  }
  return out;
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

}  // namespace

std::string render_svg(const LinePlot& plot) {
  double x_lo = INFINITY, x_hi = -INFINITY, left_top = plot.reference.value_or(0.0), right_top = 0.0;
  for (const auto& s : plot.series) {
    for (const auto& [x, y] : s.points) {
      x_lo = std::min(x_lo, x);
      x_hi = std::max(x_hi, x);
      (s.right_axis ? right_top : left_top) = std::max(s.right_axis ? right_top : left_top, y);
    }
  }
  if (!(x_hi > x_lo)) {
    x_lo = std::isfinite(x_lo) ? x_lo - 1.0 : 0.0;
    x_hi = x_lo + 2.0;
  }
  Axis x{x_lo, x_hi, nice_step(x_hi - x_lo)};
  const Axis left = value_axis(left_top), right = value_axis(right_top);
  const double px0 = kLeft, px1 = kWidth - kRight, py0 = kHeight - kBottom, py1 = kTop;
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(kWidth) + "\" height=\"" +
                    num(kHeight) +
                    "\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" "
                    "fill=\"white\"/>\n";
  svg += "<text x=\"" + num(kWidth / 2) + "\" y=\"25\" text-anchor=\"middle\" font-size=\"15\">" +
         escape(plot.title) + "</text>\n";
  svg += "<rect x=\"" + num(px0) + "\" y=\"" + num(py1) + "\" width=\"" + num(px1 - px0) + "\" height=\"" +
         num(py0 - py1) + "\" fill=\"none\" stroke=\"#444\"/>\n";
  // Grid and ticks.
  for (double v = std::ceil(x.lo / x.step) * x.step; v <= x.hi + 1e-9 * x.step; v += x.step) {
    const double px = x.map(v, px0, px1);
    svg += "<line x1=\"" + num(px) + "\" y1=\"" + num(py0) + "\" x2=\"" + num(px) + "\" y2=\"" + num(py1) +
           "\" stroke=\"#eee\"/>";
    svg += "<text x=\"" + num(px) + "\" y=\"" + num(py0 + 16) + "\" text-anchor=\"middle\">" + tick_text(v) +
           "</text>\n";
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
           ") rotate(90)\" text-anchor=\"middle\">" + escape(plot.right_label) + "</text>\n";
  }
  svg += "<text x=\"" + num((px0 + px1) / 2) + "\" y=\"" + num(py0 + 36) + "\" text-anchor=\"middle\">" +
         escape(plot.x_label) + "</text>\n";
  svg += "<text transform=\"translate(22," + num((py0 + py1) / 2) +
         ") rotate(-90)\" text-anchor=\"middle\">" + escape(plot.left_label) + "</text>\n";
  if (plot.reference) {
    const double py = left.map(*plot.reference, py0, py1);
    svg += "<line x1=\"" + num(px0) + "\" y1=\"" + num(py) + "\" x2=\"" + num(px1) + "\" y2=\"" + num(py) +
           "\" stroke=\"#000\" stroke-dasharray=\"6,4\"/>";
    svg += "<text x=\"" + num(px0 + 6) + "\" y=\"" + num(py - 5) + "\">" + escape(plot.reference_label) +
           "</text>\n";
  }
  // Series and legend.
  for (size_t s = 0; s < plot.series.size(); ++s) {
    const PlotSeries& series = plot.series[s];
    const Axis& y = series.right_axis ? right : left;
    const std::string color = kColors[s % (sizeof kColors / sizeof kColors[0])];
    std::string points;
    for (const auto& [px, py] : series.points)
      points += num(x.map(px, px0, px1)) + "," + num(y.map(py, py0, py1)) + " ";
    svg += "<polyline fill=\"none\" stroke=\"" + color + "\" stroke-width=\"2\"" +
           (series.dashed ? " stroke-dasharray=\"3,3\"" : "") + " points=\"" + points + "\"/>\n";
    for (const auto& [px, py] : series.points) {
      svg += "<circle cx=\"" + num(x.map(px, px0, px1)) + "\" cy=\"" + num(y.map(py, py0, py1)) +
             "\" r=\"3\" fill=\"" + color + "\"/>";
    }
    const double ly = kHeight - 30 + 0.0 * static_cast<double>(s);
    const double lx = px0 + static_cast<double>(s % 3) * 240.0;
    const double row = static_cast<double>(s / 3) * 16.0;
    svg += "\n<line x1=\"" + num(lx) + "\" y1=\"" + num(ly + row) + "\" x2=\"" + num(lx + 24) + "\" y2=\"" +
           num(ly + row) + "\" stroke=\"" + color + "\" stroke-width=\"2\"" +
           (series.dashed ? " stroke-dasharray=\"3,3\"" : "") + "/>";
    svg += "<text x=\"" + num(lx + 30) + "\" y=\"" + num(ly + row + 4) + "\">" + escape(series.label) +
           "</text>\n";
  }
  svg += "</svg>\n";
  return svg;
}

}  // namespace rlsim
