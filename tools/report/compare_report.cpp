// Rendering a policy comparison as text, CSV and SVG.
#include "tools/report/compare_report.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "models/review/phase_preference.h"
#include "sim/platform/gpu_state.h"
#include "tools/report/compare_ranking.h"
#include "tools/report/state_colours.h"
#include "tools/report/text_format.h"

namespace rlsim {
namespace {

/// Where a policy's faults touched warm-up or drain steps, which the rows' steady-state figures
/// leave out: said, never silently excluded.
std::string faults_outside_steady_note(const std::vector<ComparedPolicy>& rows) {
  std::string out;
  for (const auto& row : rows) {
    if (row.metrics.is_null() || !row.metrics.contains("faults")) continue;
    const nlohmann::json& outside = row.metrics["faults"]["steps_touched_outside_steady_state"];
    if (!outside.is_array() || outside.empty()) continue;
    std::string steps;
    for (const auto& step : outside) steps += (steps.empty() ? "" : ", ") + std::to_string(step.get<int>());
    out += "faults under " + row.policy + " touched step" + (outside.size() > 1 ? "s " : " ") + steps +
           ", outside its steady state: its row leaves that cost out (metrics.json faults, step_time_s.mean "
           "keep it); run more steps or move the fault into the steady steps to rank on it\n";
  }
  return out;
}

std::string text(const nlohmann::json& j, std::initializer_list<const char*> path) {
  const nlohmann::json* node = &j;
  for (const char* key : path) {
    if (!node->is_object() || !node->contains(key)) return "";
    node = &(*node)[key];
  }
  return node->is_string() ? node->get<std::string>() : "";
}

/// Half the steady step time's 95 % interval in seconds, or nothing (too few steady steps).
std::optional<double> step_half_width(const nlohmann::json& m) {
  const nlohmann::json* interval = m.contains("step_time_s") ? &m["step_time_s"]["steady_ci95"] : nullptr;
  if (!interval || !interval->is_array() || interval->size() != 2) return std::nullopt;
  return ((*interval)[1].get<double>() - (*interval)[0].get<double>()) / 2.0;
}

std::string step_half_width_text(const nlohmann::json& m) {
  const std::optional<double> half = step_half_width(m);
  return half ? fixed(*half, 2) : "-";
}

std::string step_half_width_csv(const nlohmann::json& m) {
  const std::optional<double> half = step_half_width(m);
  return half ? fixed(*half, 6) : "";
}

/// GPU-seconds per steady step by state, plus "unrecorded" for GPU time no interval covers (the
/// states' seconds cover the steady window only).
std::map<std::string, double> gpu_seconds_per_step(const nlohmann::json& m) {
  std::map<std::string, double> states;
  const nlohmann::json* steady = m.contains("steady_state") ? &m["steady_state"] : nullptr;
  const double steps = std::max(1.0, steady ? static_cast<double>((*steady)["steps"].size()) : 1.0);
  const double window_s = steady ? json_number(*steady, {"end_s"}) - json_number(*steady, {"start_s"}) : 0.0;
  double gpus = 0.0, recorded = 0.0;
  if (m.contains("pools")) {
    for (const auto& [name, pool] : m["pools"].items()) gpus += json_number(pool, {"gpus"});
  }
  if (m.contains("gpu_seconds_by_state")) {
    for (const auto& [state, seconds] : m["gpu_seconds_by_state"].items()) {
      states[state] = seconds.get<double>() / steps;
      recorded += seconds.get<double>();
    }
  }
  const double rest = gpus * window_s - recorded;
  if (rest > 1e-6 * std::max(1.0, recorded)) states[kUnrecordedState] = rest / steps;
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

std::string compare_table(const std::string& scenario, const std::vector<ComparedPolicy>& rows,
                          const CompareObjective& objective) {
  const auto causes = compare_causes(rows);
  std::string out = "rlsim compare: " + scenario + " (ranked by " + objective.name + ")\n";
  out += padded("#", 3) + padded("policy", 14) + padded("step s", 9) + padded("±95%", 7) +
         padded("samples/s", 11) + padded("bubble", 8);
  for (const auto& cause : causes) out += padded(cause, cause.size() + 1);
  out += padded("stale", 7) + padded("TPOT ms", 9) + padded("USD/step", 10) + padded("USD/1M tok", 11) +
         "measured better\n";
  const std::vector<size_t> order = rank_rows(rows, objective);
  for (size_t r = 0; r < order.size(); ++r) {
    const auto& row = rows[order[r]];
    const auto& m = row.metrics;
    out += padded(std::to_string(r + 1), 3) + padded(row.policy, 14) +
           padded(fixed(json_number(m, {"step_time_s", "steady_mean"}), 2), 9) +
           padded(step_half_width_text(m), 7) +
           padded(fixed(json_number(m, {"throughput", "samples_per_s"}), 3), 11) +
           padded(fixed(100.0 * json_number(m, {"bubble", "fraction"}), 1) + "%", 8);
    for (const auto& cause : causes) {
      out += padded(fixed(100.0 * json_number(m["bubble"]["by_cause"], {cause.c_str()}), 1) + "%",
                    cause.size() + 1);
    }
    out += padded(fixed(json_number(m, {"staleness", "mean_versions"}), 2), 7) +
           padded(fixed(1e3 * json_number(m, {"inference", "tpot_s", "p50"}), 2), 9) +
           padded(fixed(json_number(m, {"cost", "usd_per_step"}), 2), 10) +
           padded(fixed(json_number(m, {"cost", "usd_per_1m_tokens"}), 2), 11) +
           measured_change(rows, order[r], objective) + "\n";
  }
  for (const auto& row : rows) {
    if (row.metrics.is_null())
      out += padded("-", 3) + padded(row.policy, 14) + "skipped: " + row.skipped + "\n";
  }
  out +=
      "step s: steady-state mean (warm-up and drain steps left out, as every figure of the row), ±95%: "
      "half its 95 % interval (- with fewer than 3 steady steps); stale: weight versions behind, mean per "
      "trained token; TPOT: p50; measured better: the best policy here better beyond both intervals\n";
  out += winner_line(rows, objective);
  for (size_t i : order) {
    out += "  " + rows[i].policy + ": " + measured_advice(rows, i, objective) +
           "\n    the rule of thumb's reason: " + text(rows[i].metrics, {"advice", "reason"}) + "\n";
  }
  out += faults_outside_steady_note(rows);
  return out;
}

std::string compare_csv(const std::vector<ComparedPolicy>& rows, const CompareObjective& objective) {
  const auto causes = compare_causes(rows);
  std::string out =
      "policy,rank,steady_step_time_s,steady_step_time_ci95_half_s,samples_per_s,bubble_fraction";
  for (const auto& cause : causes) out += "," + cause;
  out += ",staleness_versions,tpot_p50_s,usd_per_step,usd_per_1m_tokens,recommendation,best_measured\n";
  auto cell = [](double v) { return fixed(v, 6); };
  const std::vector<size_t> order = rank_rows(rows, objective);
  for (size_t r = 0; r < order.size(); ++r) {
    const auto& m = rows[order[r]].metrics;
    out += rows[order[r]].policy + "," + std::to_string(r + 1) + "," +
           cell(json_number(m, {"step_time_s", "steady_mean"})) + "," + step_half_width_csv(m) + "," +
           cell(json_number(m, {"throughput", "samples_per_s"})) + "," +
           cell(json_number(m, {"bubble", "fraction"}));
    for (const auto& cause : causes) out += "," + cell(json_number(m["bubble"]["by_cause"], {cause.c_str()}));
    out += "," + cell(json_number(m, {"staleness", "mean_versions"})) + "," +
           cell(json_number(m, {"inference", "tpot_s", "p50"})) + "," +
           cell(json_number(m, {"cost", "usd_per_step"})) + "," +
           cell(json_number(m, {"cost", "usd_per_1m_tokens"})) + "," + text(m, {"advice", "recommendation"}) +
           "," + rows[order[0]].policy + "\n";
  }
  return out;
}

std::string compare_svg(const std::string& scenario, const std::string& setup,
                        const std::vector<ComparedPolicy>& rows, const CompareObjective& objective) {
  // Layout: a title, one horizontal bar per policy (label left, value right), a legend below.
  constexpr double kLeft = 130, kBarWidth = 560, kBarHeight = 28, kGap = 14, kTop = 56;
  std::vector<std::pair<std::string, std::map<std::string, double>>> bars;
  std::vector<std::string> states;
  double widest = 0.0;
  std::vector<std::string> figures;  // the objective's value, per bar
  for (size_t i : rank_rows(rows, objective)) {
    const ComparedPolicy& row = rows[i];
    const double v = objective_value(objective, row.metrics);
    figures.push_back(objective.name + " " + (std::abs(v) >= 1 ? fixed(v, 2) : fixed(v, 4)) + " " +
                      objective.unit);
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
  const double width = kLeft + kBarWidth + 260;
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + fixed(width, 0) + "\" height=\"" +
                    fixed(height, 0) + "\" viewBox=\"0 0 " + fixed(width, 0) + " " + fixed(height, 0) +
                    "\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"13\">\n";
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg += "<text x=\"" + fixed(kLeft, 0) +
         "\" y=\"24\" font-size=\"16\" font-weight=\"bold\">GPU time per RL step by state: " +
         xml_escape(setup) + "</text>\n";
  svg += "<text x=\"" + fixed(kLeft, 0) + "\" y=\"42\" fill=\"#555\">" + xml_escape(scenario) +
         ": GPU-seconds per step (bar length), best first by " + xml_escape(objective.name) +
         "; hover a segment for its value</text>\n";
  double y = kTop;
  for (size_t b = 0; b < bars.size(); ++b) {
    const auto& [policy, per_step] = bars[b];
    svg += "<text x=\"" + fixed(kLeft - 8, 0) + "\" y=\"" + fixed(y + kBarHeight * 0.65, 1) +
           "\" text-anchor=\"end\"" + (b == 0 ? " font-weight=\"bold\">" : ">") + xml_escape(policy) +
           "</text>\n";
    double x = kLeft, total = 0.0;
    for (const auto& state : states) {
      auto it = per_step.find(state);
      if (it == per_step.end() || widest <= 0.0) continue;
      const double w = it->second / widest * kBarWidth;
      total += it->second;
      svg += "<rect x=\"" + fixed(x, 2) + "\" y=\"" + fixed(y, 1) + "\" width=\"" + fixed(w, 2) +
             "\" height=\"" + fixed(kBarHeight, 0) + "\" fill=\"" + state_colour(state) + "\"><title>" +
             xml_escape(policy + " " + state) + ": " + fixed(it->second, 1) +
             " GPU-s per step</title></rect>\n";
      x += w;
    }
    svg += "<text x=\"" + fixed(x + 6, 1) + "\" y=\"" + fixed(y + kBarHeight * 0.65, 1) +
           "\" fill=\"#333\">" + fixed(total, 0) + " GPU-s; " + xml_escape(figures[b]) +
           (b == 0 ? " (winner)" : "") + "</text>\n";
    y += kBarHeight + kGap;
  }
  for (size_t i = 0; i < states.size(); ++i) {
    const double lx = kLeft + static_cast<double>(i % 3) * 220;
    const double ly = legend_top + static_cast<double>(i / 3) * 22;
    svg += "<rect x=\"" + fixed(lx, 0) + "\" y=\"" + fixed(ly - 11, 0) +
           "\" width=\"14\" height=\"14\" fill=\"" + state_colour(states[i]) + "\"/><text x=\"" +
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
