// Rendering a policy comparison as text, CSV and SVG.
#include "tools/report/compare_report.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <map>
#include <set>

#include "models/review/phase_preference.h"
#include "sim/platform/gpu_state.h"
#include "tools/report/text_format.h"

namespace rlsim {
namespace {

/// The chart's name for GPU time that no interval covers (not a timeline state).
const std::string kUnrecorded = "unrecorded";

double number(const nlohmann::json& j, std::initializer_list<const char*> path) {
  const nlohmann::json* node = &j;
  for (const char* key : path) {
    if (!node->is_object() || !node->contains(key)) return 0.0;
    node = &(*node)[key];
  }
  return node->is_number() ? node->get<double>() : 0.0;
}

std::string text(const nlohmann::json& j, std::initializer_list<const char*> path) {
  const nlohmann::json* node = &j;
  for (const char* key : path) {
    if (!node->is_object() || !node->contains(key)) return "";
    node = &(*node)[key];
  }
  return node->is_string() ? node->get<std::string>() : "";
}

/// Fill colour of a GPU state in the chart: busy phases cool, waits warm, switching amber.
std::string colour(const std::string& name) {
  static const std::map<GpuState, std::string> fixed_colours{
      {GpuState::busy(Phase::rollout), "#2e7d32"},
      {GpuState::busy(Phase::train), "#1565c0"},
      {GpuState::busy(Phase::ref_logprob), "#64b5f6"},
      {GpuState::busy(Phase::weight_sync), "#7e57c2"},
      {GpuState::switching(), "#ffb300"},
      {GpuState::wait(WaitCause::train_waits_rollout), "#c62828"},
      {GpuState::wait(WaitCause::rollout_waits_weights), "#ef6c00"},
      {GpuState::wait(WaitCause::rollout_waits_agents), "#f06292"},
      {GpuState::wait(WaitCause::long_tail), "#e57373"},
      {GpuState::down(), "#212121"}};
  if (name == kUnrecorded) return "#e0e0e0";
  const std::optional<GpuState> state = parse_gpu_state(name);
  assert(state && "metrics.json names only states of the name table");
  auto it = fixed_colours.find(*state);
  if (it != fixed_colours.end()) return it->second;
  return state->is(StateKind::wait) ? "#ad1457" : "#9e9e9e";
}

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

/// GPU-seconds per step by state, plus "unrecorded" for GPU time no interval covers.
std::map<std::string, double> gpu_seconds_per_step(const nlohmann::json& m) {
  std::map<std::string, double> states;
  const double steps = std::max(1.0, number(m, {"steps"}));
  double gpus = 0.0, recorded = 0.0;
  if (m.contains("pools")) {
    for (const auto& [name, pool] : m["pools"].items()) gpus += number(pool, {"gpus"});
  }
  if (m.contains("gpu_seconds_by_state")) {
    for (const auto& [state, seconds] : m["gpu_seconds_by_state"].items()) {
      states[state] = seconds.get<double>() / steps;
      recorded += seconds.get<double>();
    }
  }
  const double rest = gpus * number(m, {"sim_time_s"}) - recorded;
  if (rest > 1e-6 * std::max(1.0, recorded)) states[kUnrecorded] = rest / steps;
  return states;
}

}  // namespace

std::vector<std::string> compare_causes(const std::vector<ComparedPolicy>& rows) {
  std::vector<std::string> causes;
  for (WaitCause cause : enum_values<WaitCause>()) {
    if (always_reported(cause)) causes.emplace_back(enum_name(cause));
  }
  std::set<std::string> extra;  // alphabetical
  for (const auto& row : rows) {
    if (row.metrics.is_null() || !row.metrics.contains("bubble")) continue;
    for (const auto& [name, value] : row.metrics["bubble"]["by_cause"].items()) {
      const std::optional<WaitCause> cause = parse_enum<WaitCause>(name);
      assert(cause && "metrics.json names only causes of the name table");
      if (!always_reported(*cause)) extra.insert(name);
    }
  }
  causes.insert(causes.end(), extra.begin(), extra.end());
  return causes;
}

std::string compare_table(const std::string& scenario, const std::vector<ComparedPolicy>& rows) {
  const auto causes = compare_causes(rows);
  std::string out = "rlsim compare: " + scenario + "\n";
  out += padded("policy", 14) + padded("step s", 10) + padded("samples/s", 11) + padded("bubble", 8);
  for (const auto& cause : causes) out += padded(cause, cause.size() + 1);
  out += padded("USD/step", 10) + padded("USD/1M tok", 11) + "advice\n";
  for (const auto& row : rows) {
    if (row.metrics.is_null()) {
      out += padded(row.policy, 14) + "skipped: " + row.skipped + "\n";
      continue;
    }
    const auto& m = row.metrics;
    out += padded(row.policy, 14) + padded(fixed(number(m, {"step_time_s", "mean"}), 2), 10) +
           padded(fixed(number(m, {"throughput", "samples_per_s"}), 3), 11) +
           padded(fixed(100.0 * number(m, {"bubble", "fraction"}), 1) + "%", 8);
    for (const auto& cause : causes) {
      out +=
          padded(fixed(100.0 * number(m["bubble"]["by_cause"], {cause.c_str()}), 1) + "%", cause.size() + 1);
    }
    out += padded(fixed(number(m, {"cost", "usd_per_step"}), 2), 10) +
           padded(fixed(number(m, {"cost", "usd_per_1m_tokens"}), 2), 11) +
           text(m, {"advice", "recommendation"}) + "\n";
  }
  for (const auto& row : rows) {
    if (!row.metrics.is_null())
      out += "  " + row.policy + ": " + text(row.metrics, {"advice", "reason"}) + "\n";
  }
  return out;
}

std::string compare_csv(const std::vector<ComparedPolicy>& rows) {
  const auto causes = compare_causes(rows);
  std::string out = "policy,step_time_s,samples_per_s,bubble_fraction";
  for (const auto& cause : causes) out += "," + cause;
  out += ",usd_per_step,usd_per_1m_tokens,recommendation\n";
  auto cell = [](double v) { return fixed(v, 6); };
  for (const auto& row : rows) {
    if (row.metrics.is_null()) continue;
    const auto& m = row.metrics;
    out += row.policy + "," + cell(number(m, {"step_time_s", "mean"})) + "," +
           cell(number(m, {"throughput", "samples_per_s"})) + "," + cell(number(m, {"bubble", "fraction"}));
    for (const auto& cause : causes) out += "," + cell(number(m["bubble"]["by_cause"], {cause.c_str()}));
    out += "," + cell(number(m, {"cost", "usd_per_step"})) + "," +
           cell(number(m, {"cost", "usd_per_1m_tokens"})) + "," + text(m, {"advice", "recommendation"}) +
           "\n";
  }
  return out;
}

std::string compare_svg(const std::string& scenario, const std::vector<ComparedPolicy>& rows) {
  // Layout: a title, one horizontal bar per policy (label left, value right), a legend below.
  constexpr double kLeft = 130, kBarWidth = 620, kBarHeight = 28, kGap = 14, kTop = 56;
  std::vector<std::pair<std::string, std::map<std::string, double>>> bars;
  std::vector<std::string> states;
  double widest = 0.0;
  for (const auto& row : rows) {
    if (row.metrics.is_null()) continue;
    auto per_step = gpu_seconds_per_step(row.metrics);
    double total = 0.0;
    for (const auto& [state, seconds] : per_step) {
      total += seconds;
      if (std::find(states.begin(), states.end(), state) == states.end()) states.push_back(state);
    }
    widest = std::max(widest, total);
    bars.emplace_back(row.policy, per_step);
  }
  // Busy phases first, then switching, waits, down, unrecorded: the eye reads work left, loss right.
  auto rank = [](const std::string& name) {
    const std::optional<GpuState> state = parse_gpu_state(name);
    if (!state) return 4;  // unrecorded
    switch (state->kind()) {
      case StateKind::busy: return 0;
      case StateKind::switching: return 1;
      case StateKind::wait: return 2;
      case StateKind::down: return 3;
      case StateKind::transfer: break;
    }
    return 4;
  };
  std::stable_sort(states.begin(), states.end(), [&](const auto& a, const auto& b) {
    return rank(a) != rank(b) ? rank(a) < rank(b) : a < b;
  });
  const double legend_top = kTop + static_cast<double>(bars.size()) * (kBarHeight + kGap) + 24;
  const double legend_rows = std::ceil(static_cast<double>(states.size()) / 3.0);
  const double height = legend_top + legend_rows * 22 + 20;
  const double width = kLeft + kBarWidth + 120;
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + fixed(width, 0) + "\" height=\"" +
                    fixed(height, 0) + "\" viewBox=\"0 0 " + fixed(width, 0) + " " + fixed(height, 0) +
                    "\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"13\">\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg += "<text x=\"" + fixed(kLeft, 0) +
         "\" y=\"24\" font-size=\"16\" font-weight=\"bold\">GPU time per RL step by state — " +
         xml_escape(scenario) + "</text>\n";
  svg +=
      "<text x=\"" + fixed(kLeft, 0) +
      "\" y=\"42\" fill=\"#555\">GPU-seconds per step (bar length); hover a segment for its value</text>\n";
  double y = kTop;
  for (const auto& [policy, per_step] : bars) {
    svg += "<text x=\"" + fixed(kLeft - 8, 0) + "\" y=\"" + fixed(y + kBarHeight * 0.65, 1) +
           "\" text-anchor=\"end\">" + xml_escape(policy) + "</text>\n";
    double x = kLeft, total = 0.0;
    for (const auto& state : states) {
      auto it = per_step.find(state);
      if (it == per_step.end() || widest <= 0.0) continue;
      const double w = it->second / widest * kBarWidth;
      total += it->second;
      svg += "<rect x=\"" + fixed(x, 2) + "\" y=\"" + fixed(y, 1) + "\" width=\"" + fixed(w, 2) +
             "\" height=\"" + fixed(kBarHeight, 0) + "\" fill=\"" + colour(state) + "\"><title>" +
             xml_escape(policy + " " + state) + ": " + fixed(it->second, 1) +
             " GPU-s per step</title></rect>\n";
      x += w;
    }
    svg += "<text x=\"" + fixed(x + 6, 1) + "\" y=\"" + fixed(y + kBarHeight * 0.65, 1) +
           "\" fill=\"#333\">" + fixed(total, 0) + " GPU-s</text>\n";
    y += kBarHeight + kGap;
  }
  for (size_t i = 0; i < states.size(); ++i) {
    const double lx = kLeft + static_cast<double>(i % 3) * 220;
    const double ly = legend_top + static_cast<double>(i / 3) * 22;
    svg += "<rect x=\"" + fixed(lx, 0) + "\" y=\"" + fixed(ly - 11, 0) +
           "\" width=\"14\" height=\"14\" fill=\"" + colour(states[i]) + "\"/><text x=\"" +
           fixed(lx + 20, 0) + "\" y=\"" + fixed(ly, 0) + "\">" + xml_escape(states[i]) + "</text>\n";
  }
  svg += "</svg>\n";
  return svg;
}

std::string card_preference_note(const Scenario& s) {
  const HardwareSpec& train = s.cluster.pool(s.training.pool)->card;
  const HardwareSpec& rollout = s.cluster.pool(s.rollout.pool)->card;
  if (train.name == rollout.name) return "";
  const PhasePreference p = phase_preference({train, rollout}, s.training.weights);
  if (p.train_card.empty()) return "roofline: " + p.reason + "\n";
  const bool follows = p.train_card == train.name;
  return "roofline: " + p.reason + ".\n  This scenario trains on " + train.name + " and rolls out on " +
         rollout.name + (follows ? ": it follows the preference.\n" : ": it goes against the preference.\n");
}

}  // namespace rlsim
