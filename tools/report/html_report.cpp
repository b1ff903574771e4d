// Building report.html pages: the page frame, the timeline, bars and histograms.
#include "tools/report/html_report.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "tools/report/chrome_trace.h"
#include "tools/report/state_colours.h"
#include "tools/report/text_format.h"

namespace rlsim {
namespace {

std::string px(double v) { return fixed(v, 1); }

/// Horizontal bars, one per (label, fraction), with the percentage written beside.
std::string fraction_bars(const std::vector<std::tuple<std::string, double, std::string>>& bars) {
  constexpr double kLabel = 230, kWidth = 420, kRow = 22;
  const double height = static_cast<double>(bars.size()) * kRow + 8;
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + px(kLabel + kWidth + 80) +
                    "\" height=\"" + px(height) + "\" font-size=\"12\" font-family=\"sans-serif\">\n";
  double y = 4;
  for (const auto& [label, fraction, colour] : bars) {
    svg += "<text x=\"" + px(kLabel - 6) + "\" y=\"" + px(y + 14) + "\" text-anchor=\"end\">" +
           xml_escape(label) + "</text><rect x=\"" + px(kLabel) + "\" y=\"" + px(y + 3) + "\" width=\"" +
           px(std::max(0.0, fraction) * kWidth) + "\" height=\"14\" fill=\"" + colour + "\"/><text x=\"" +
           px(kLabel + std::max(0.0, fraction) * kWidth + 6) + "\" y=\"" + px(y + 14) + "\">" +
           fixed(100.0 * fraction, 1) + " %</text>\n";
    y += kRow;
  }
  return svg + "</svg>\n";
}

/// A histogram of `values` (seconds) in 24 bins from 0 to the max, with p50 and max written.
std::string histogram_svg(const std::string& name, std::vector<double> values) {
  if (values.empty()) return "<p>no " + xml_escape(name) + " samples</p>\n";
  constexpr int kBins = 24;
  constexpr double kWidth = 480, kHeight = 120, kLeft = 40, kBottom = 30;
  std::sort(values.begin(), values.end());
  const double top = values.back() > 0 ? values.back() : 1.0;
  std::vector<int> counts(kBins, 0);
  for (double v : values) counts[std::min(kBins - 1, static_cast<int>(v / top * kBins))] += 1;
  const int most = *std::max_element(counts.begin(), counts.end());
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + px(kLeft + kWidth + 20) +
                    "\" height=\"" + px(kHeight + kBottom) +
                    "\" font-size=\"11\" font-family=\"sans-serif\">\n";
  const double bar = kWidth / kBins;
  for (int b = 0; b < kBins; ++b) {
    const double h = most > 0 ? kHeight * counts[static_cast<size_t>(b)] / most : 0.0;
    svg += "<rect x=\"" + px(kLeft + b * bar) + "\" y=\"" + px(kHeight - h) + "\" width=\"" + px(bar - 1) +
           "\" height=\"" + px(h) + "\" fill=\"#1565c0\"><title>" + readable_duration(b * top / kBins) +
           " to " + readable_duration((b + 1) * top / kBins) + ": " +
           std::to_string(counts[static_cast<size_t>(b)]) + " calls</title></rect>\n";
  }
  svg += "<line x1=\"" + px(kLeft) + "\" y1=\"" + px(kHeight) + "\" x2=\"" + px(kLeft + kWidth) + "\" y2=\"" +
         px(kHeight) + "\" stroke=\"#444\"/>";
  for (int t = 0; t <= 4; ++t) {
    svg += "<text x=\"" + px(kLeft + kWidth * t / 4) + "\" y=\"" + px(kHeight + 14) +
           "\" text-anchor=\"middle\">" + readable_duration(top * t / 4) + "</text>";
  }
  svg += "<text x=\"" + px(kLeft) + "\" y=\"" + px(kHeight + 28) + "\">" + xml_escape(name) + " per call, " +
         std::to_string(values.size()) + " calls (bar height: calls)</text>\n";
  return svg + "</svg>\n";
}

}  // namespace

std::string html_pre(const std::string& text) {
  std::string html = "<pre>";
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = std::min(text.find('\n', start), text.size());
    const std::string line = text.substr(start, end - start);
    const size_t indent = line.find_first_not_of(' ');
    // A table's header may have single spaces between its columns, but it has no "name: text".
    const bool prose = indent != std::string::npos && line.find("  ", indent) == std::string::npos &&
                       (line.find(": ") != std::string::npos || line.back() == ':');
    const std::string escaped = xml_escape(line) + (end < text.size() ? "\n" : "");
    html += prose ? "<span class=\"prose\">" + escaped + "</span>" : escaped;
    start = end + 1;
  }
  return html + "</pre>\n";
}

std::string html_page(const std::string& title, const std::vector<HtmlSection>& sections) {
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + xml_escape(title) +
      "</title>\n<style>body{font-family:sans-serif;margin:24px;max-width:1200px}pre{background:#f6f6f6;"
      "padding:8px;overflow-x:auto;font-size:12px}pre .prose{white-space:pre-wrap}h2{border-bottom:1px solid "
      "#ddd}</style></head>\n<body>\n<h1>" +
      xml_escape(title) + "</h1>\n";
  for (const auto& [heading, body] : sections) html += "<h2>" + xml_escape(heading) + "</h2>\n" + body;
  return html + "</body></html>\n";
}

std::string timeline_svg(const Timeline& timeline) {
  constexpr double kLabel = 200, kWidth = 940, kTop = 20;
  const auto& tracks = timeline.tracks();
  // One row per instance (or trainer) whose GPUs do the same work, as trace.json shows them.
  const std::vector<TrackView> views = track_views(timeline, true);
  std::vector<int> rows;  // GPU tracks shown, grouped by pool in first-seen order
  std::vector<std::string> groups;
  for (const auto& t : tracks) {
    if (t.is_gpu && std::find(groups.begin(), groups.end(), t.group) == groups.end())
      groups.push_back(t.group);
  }
  std::map<int, int> row_of;
  for (const auto& g : groups) {
    for (size_t i = 0; i < tracks.size(); ++i) {
      if (tracks[i].is_gpu && tracks[i].group == g && views[i].shown) {
        row_of[static_cast<int>(i)] = static_cast<int>(rows.size());
        rows.push_back(static_cast<int>(i));
      }
    }
  }
  // Rows of 14 px while few (an instance per row), 7 px when a pool is shown per GPU at scale.
  const double row_height = rows.size() <= 24 ? 14.0 : 7.0;
  double end_s = 0.0;
  for (const auto& s : timeline.steps()) end_s = std::max(end_s, s.end_s);
  for (const auto& i : timeline.intervals()) end_s = std::max(end_s, i.end_s);
  if (!(end_s > 0.0)) end_s = 1.0;
  const double height = kTop + static_cast<double>(rows.size()) * row_height + 40;
  auto x = [&](double t) { return kLabel + t / end_s * kWidth; };
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + px(kLabel + kWidth + 20) +
                    "\" height=\"" + px(height) + "\" font-size=\"11\" font-family=\"sans-serif\">\n";
  // Intervals: contiguous pieces of one state merged; pieces under 0.2 px are invisible and left out.
  std::vector<Interval> pieces;
  for (const auto& i : timeline.intervals()) {
    if (row_of.count(i.track)) pieces.push_back(i);
  }
  std::sort(pieces.begin(), pieces.end(), [](const Interval& a, const Interval& b) {
    return a.track != b.track ? a.track < b.track : a.start_s < b.start_s;
  });
  for (size_t k = 0; k < pieces.size();) {
    Interval merged = pieces[k++];
    while (k < pieces.size() && pieces[k].track == merged.track && pieces[k].state == merged.state &&
           pieces[k].start_s - merged.end_s < 1e-9 * end_s)
      merged.end_s = std::max(merged.end_s, pieces[k++].end_s);
    const double w = x(merged.end_s) - x(merged.start_s);
    if (w < 0.2) continue;
    const std::string state = to_string(merged.state);
    svg += "<rect x=\"" + fixed(x(merged.start_s), 2) + "\" y=\"" +
           px(kTop + row_of[merged.track] * row_height) + "\" width=\"" + fixed(w, 2) + "\" height=\"" +
           px(row_height - 1) + "\" fill=\"" + state_colour(state) + "\"><title>" +
           xml_escape(views[static_cast<size_t>(merged.track)].label) + " " + state + ": " +
           readable_duration(merged.start_s) + " to " + readable_duration(merged.end_s) + "</title></rect>\n";
  }
  // Pool labels, step boundaries, time axis.
  for (const auto& g : groups) {
    int first = -1, count = 0, gpus = 0;
    for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
      if (tracks[static_cast<size_t>(rows[static_cast<size_t>(r)])].group != g) continue;
      if (first < 0) first = r;
      ++count;
    }
    for (const auto& t : tracks) gpus += t.is_gpu && t.group == g ? 1 : 0;
    svg += "<text x=\"" + px(kLabel - 6) + "\" y=\"" + px(kTop + (first + count / 2.0) * row_height + 4) +
           "\" text-anchor=\"end\">pool " + xml_escape(g) + " (" + std::to_string(gpus) + " GPUs, " +
           std::to_string(count) + (count == 1 ? " row" : " rows") + ")</text>\n";
  }
  const double bottom = kTop + static_cast<double>(rows.size()) * row_height;
  for (const auto& s : timeline.steps()) {
    svg += "<line x1=\"" + px(x(s.end_s)) + "\" y1=\"" + px(kTop - 4) + "\" x2=\"" + px(x(s.end_s)) +
           "\" y2=\"" + px(bottom) + "\" stroke=\"#000\" stroke-dasharray=\"2,2\"/><text x=\"" +
           px(x(s.end_s) - 2) + "\" y=\"" + px(kTop - 6) + "\" text-anchor=\"end\">step " +
           std::to_string(s.step) + " ends</text>\n";
  }
  for (int t = 0; t <= 5; ++t) {
    svg += "<text x=\"" + px(x(end_s * t / 5)) + "\" y=\"" + px(bottom + 16) + "\" text-anchor=\"middle\">" +
           readable_duration(end_s * t / 5) + "</text>";
  }
  svg += "<text x=\"" + px(kLabel) + "\" y=\"" + px(bottom + 32) +
         "\">simulated time; one row per instance or trainer (per GPU where their work differs); hover a "
         "segment for its state and span</text>\n";
  return svg + "</svg>\n";
}

std::string run_report_html(const Scenario& scenario, const RunMetrics& m, const Timeline& timeline,
                            const std::string& summary, const std::string& resolved_yaml,
                            const std::string& measured_advice) {
  std::vector<HtmlSection> sections;
  sections.emplace_back("Summary", html_pre(summary));
  // Legend of the states that occur.
  std::string legend = "<p>";
  for (const auto& [state, seconds] : m.gpu_seconds_by_state) {
    legend += "<span style=\"display:inline-block;width:12px;height:12px;background:" +
              state_colour(to_string(state)) + "\"></span> " + xml_escape(to_string(state)) + " &nbsp; ";
  }
  sections.emplace_back("Timeline per pool", legend + "</p>\n" + timeline_svg(timeline));
  std::vector<std::tuple<std::string, double, std::string>> causes;
  for (const auto& [cause, fraction] : m.bubble_by_cause)
    causes.emplace_back(to_string(GpuState::wait(cause)), fraction,
                        state_colour(to_string(GpuState::wait(cause))));
  sections.emplace_back("Bubble by cause (share of the steady steps' GPU time, " +
                            fixed(100.0 * m.bubble_fraction, 1) + " % in all)",
                        fraction_bars(causes));
  std::vector<std::tuple<std::string, double, std::string>> pools;
  for (const auto& [name, pool] : m.pools) {
    pools.emplace_back("pool " + name + " busy", pool.busy_fraction, "#2e7d32");
    pools.emplace_back("pool " + name + " waiting", pool.wait_fraction, "#c62828");
  }
  sections.emplace_back("Utilisation per pool", fraction_bars(pools));
  std::vector<double> ttft, tpot;
  for (const auto& call : timeline.calls()) {
    if (!m.steady.holds(call.finish_s)) continue;  // the summary's calls: those of the steady steps
    ttft.push_back(call.ttft_s);
    tpot.push_back(call.tpot_s);
  }
  sections.emplace_back("TTFT and TPOT (calls that finished in the steady steps)",
                        histogram_svg("TTFT", ttft) + histogram_svg("TPOT", tpot));
  sections.emplace_back("Cost", "<p>" + fixed(m.usd_per_step, 2) + " USD per step, " +
                                    fixed(m.usd_per_1m_tokens, 2) + " USD per 1M generated tokens</p>\n");
  if (!measured_advice.empty())
    sections.emplace_back("Advice, measured (each change simulated)", html_pre(measured_advice));
  else
    sections.emplace_back("Advice", "<p><b>" + xml_escape(m.advice.recommendation) +
                                        "</b>: " + xml_escape(m.advice.reason) + "</p>\n");
  sections.emplace_back("Inputs (resolved.yaml)", html_pre(resolved_yaml));
  return html_page(
      "rlsim: " + scenario.name + " (policy " + m.policy + ", model " + scenario.model.name + ")", sections);
}

}  // namespace rlsim
