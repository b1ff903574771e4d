// Ranking compared policies by an objective and naming the winner and the best measured remedy.
#include "tools/report/compare_ranking.h"

#include <algorithm>
#include <cmath>

#include "tools/report/text_format.h"

namespace rlsim {
namespace {

std::string value_text(const CompareObjective& o, double v) {
  return (std::abs(v) >= 100 ? fixed(v, 1) : std::abs(v) >= 1 ? fixed(v, 2) : fixed(v, 4)) + " " + o.unit;
}

/// How much better `a` is than `b` on the objective, as a fraction of `b` (positive: better).
double gain(const CompareObjective& o, double a, double b) {
  if (b == 0.0) return 0.0;
  return o.lower_is_better ? (b - a) / b : (a - b) / b;
}

/// Margins below this are ties: the simulated figures are not that exact.
constexpr double kTieMargin = 0.005;

/// The policy that applies an advisor recommendation, when there is one.
std::string policy_applying(const std::string& recommendation) {
  if (recommendation == "label_scheduling") return "labels";
  if (recommendation == "pipeline_overlap") return "overlap";
  return "";
}

std::string recommendation_of(const nlohmann::json& m) {
  return m.contains("advice") && m["advice"].contains("recommendation")
             ? m["advice"]["recommendation"].get<std::string>()
             : "";
}

/// Steps a run of `metrics` would need for its interval to shrink by `factor` (∝ 1/√steps), at
/// least twice what it ran.
int steps_for_narrower(const nlohmann::json& metrics, double factor) {
  const int steps = std::max(1, static_cast<int>(json_number(metrics, {"steps"})));
  const double capped = std::min(factor, 10.0);
  return std::max(2 * steps, static_cast<int>(std::ceil(steps * capped * capped)));
}

/// Empty when the winner's lead over the runner-up exceeds both 95 % intervals or the objective
/// has none; otherwise the line that says the ranking is open at this run length.
std::string interval_verdict(const CompareObjective& objective, const ComparedPolicy& best,
                             const ComparedPolicy& second) {
  if (!objective.follows_step_time) return "";
  const std::optional<double> best_half = objective_half_width(objective, best.metrics);
  const std::optional<double> second_half = objective_half_width(objective, second.metrics);
  if (!best_half || !second_half) {
    return "  too few steady steps to rank on: " + best.policy + " or " + second.policy +
           " has fewer than 3 steps between warm-up and drain; rerun with --set workload.steps=" +
           std::to_string(steps_for_narrower(best.metrics, 1.0)) + " or more\n";
  }
  const double gap =
      std::abs(objective_value(objective, best.metrics) - objective_value(objective, second.metrics));
  if (gap > *best_half + *second_half) return "";
  return "  not a clear winner: " + best.policy + " " +
         value_text(objective, objective_value(objective, best.metrics)) + " ± " +
         value_text(objective, *best_half) + " and " + second.policy + " " +
         value_text(objective, objective_value(objective, second.metrics)) + " ± " +
         value_text(objective, *second_half) +
         " (95 % intervals over the steady steps) overlap; more steps narrow them (--set workload.steps=" +
         std::to_string(
             steps_for_narrower(best.metrics, (*best_half + *second_half) / std::max(gap, 1e-12))) +
         ")\n";
}

}  // namespace

double json_number(const nlohmann::json& j, const std::vector<std::string>& path) {
  const nlohmann::json* node = &j;
  for (const auto& key : path) {
    if (!node->is_object() || !node->contains(key)) return 0.0;
    node = &(*node)[key];
  }
  return node->is_number() ? node->get<double>() : 0.0;
}

const std::vector<CompareObjective>& compare_objectives() {
  static const std::vector<CompareObjective> objectives{
      {"step_time_s",
       {"step_time_s", "steady_mean"},
       true,
       "s",
       "steady-state step time (warm-up and drain left out)",
       true},
      {"samples_per_s",
       {"throughput", "samples_per_s"},
       false,
       "samples/s",
       "trained samples per second",
       true},
      {"tokens_per_s", {"throughput", "tokens_per_s"}, false, "tokens/s", "generated tokens per second"},
      {"usd_per_step", {"cost", "usd_per_step"}, true, "USD", "GPU cost of one step", true},
      {"usd_per_1m_tokens", {"cost", "usd_per_1m_tokens"}, true, "USD", "GPU cost per 1M generated tokens"},
      {"bubble_fraction", {"bubble", "fraction"}, true, "", "share of GPU time waiting"}};
  return objectives;
}

std::optional<CompareObjective> find_compare_objective(const std::string& name) {
  for (const auto& o : compare_objectives()) {
    if (o.name == name) return o;
  }
  return std::nullopt;
}

double objective_value(const CompareObjective& objective, const nlohmann::json& metrics) {
  return json_number(metrics, objective.path);
}

std::optional<double> objective_half_width(const CompareObjective& objective, const nlohmann::json& metrics) {
  if (!objective.follows_step_time) return std::nullopt;
  const nlohmann::json* interval = metrics.contains("step_time_s") && metrics["step_time_s"].is_object() &&
                                           metrics["step_time_s"].contains("steady_ci95")
                                       ? &metrics["step_time_s"]["steady_ci95"]
                                       : nullptr;
  const double mean = json_number(metrics, {"step_time_s", "steady_mean"});
  const bool enough =
      metrics.contains("steady_state") && metrics["steady_state"].value("enough_to_rank", false);
  if (!interval || interval->size() != 2 || !enough || mean <= 0.0) return std::nullopt;
  const double relative = ((*interval)[1].get<double>() - (*interval)[0].get<double>()) / 2.0 / mean;
  return relative * objective_value(objective, metrics);
}

std::vector<size_t> rank_rows(const std::vector<ComparedPolicy>& rows, const CompareObjective& objective) {
  std::vector<size_t> order;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (!rows[i].metrics.is_null()) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const double va = objective_value(objective, rows[a].metrics);
    const double vb = objective_value(objective, rows[b].metrics);
    return objective.lower_is_better ? va < vb : va > vb;
  });
  return order;
}

std::string winner_line(const std::vector<ComparedPolicy>& rows, const CompareObjective& objective) {
  const std::vector<size_t> order = rank_rows(rows, objective);
  if (order.empty()) return "no policy could run this scenario\n";
  const nlohmann::json& best = rows[order[0]].metrics;
  const double value = objective_value(objective, best);
  std::string out = "winner by " + objective.name + " (" + objective.meaning + ", " +
                    (objective.lower_is_better ? "lower" : "higher") +
                    " is better): " + rows[order[0]].policy + " at " + value_text(objective, value);
  if (order.size() == 1) return out + " (the only policy measured)\n";
  const nlohmann::json& second = rows[order[1]].metrics;
  const double runner_up = objective_value(objective, second);
  const double margin = gain(objective, value, runner_up);
  out += ", " + percent_of(margin) + " better than the runner-up " + rows[order[1]].policy + " (" +
         value_text(objective, runner_up) + ")" +
         (margin < kTieMargin ? ": a tie within 0.5%, so let the price paid decide" : "") + "\n";
  out += interval_verdict(objective, rows[order[0]], rows[order[1]]);
  const double staleness = json_number(best, {"staleness", "mean_versions"});
  const double staleness_second = json_number(second, {"staleness", "mean_versions"});
  const double tpot_ms = 1e3 * json_number(best, {"inference", "tpot_s", "p50"});
  const double tpot_second_ms = 1e3 * json_number(second, {"inference", "tpot_s", "p50"});
  out += "  price paid: staleness " + fixed(staleness, 2) + " weight versions (runner-up " +
         fixed(staleness_second, 2) + "), TPOT p50 " + fixed(tpot_ms, 2) + " ms (" +
         (tpot_ms >= tpot_second_ms ? "+" : "") + fixed(tpot_ms - tpot_second_ms, 2) + " ms";
  if (tpot_second_ms > 0)
    out += ", " + (tpot_ms >= tpot_second_ms ? std::string("+") : std::string()) +
           percent_of(tpot_ms / tpot_second_ms - 1.0);
  out += " against the runner-up)\n";
  return out;
}

bool better_beyond_intervals(const std::vector<ComparedPolicy>& rows, size_t a, size_t b,
                             const CompareObjective& objective) {
  const double va = objective_value(objective, rows[a].metrics),
               vb = objective_value(objective, rows[b].metrics);
  if (gain(objective, va, vb) <= 0.0) return false;
  const std::optional<double> ha = objective_half_width(objective, rows[a].metrics);
  const std::optional<double> hb = objective_half_width(objective, rows[b].metrics);
  return ha && hb ? std::abs(va - vb) > *ha + *hb : gain(objective, va, vb) >= kTieMargin;
}

std::optional<size_t> clearly_better(const std::vector<ComparedPolicy>& rows, size_t row,
                                     const CompareObjective& objective) {
  for (size_t i : rank_rows(rows, objective)) {
    if (i != row && better_beyond_intervals(rows, i, row, objective)) return i;
  }
  return std::nullopt;
}

std::string measured_change(const std::vector<ComparedPolicy>& rows, size_t row,
                            const CompareObjective& objective) {
  const std::vector<size_t> order = rank_rows(rows, objective);
  if (!order.empty() && order[0] == row) return "best";
  const std::optional<size_t> better = clearly_better(rows, row, objective);
  if (!better) return "-";
  return rows[*better].policy + " " +
         percent_of(gain(objective, objective_value(objective, rows[*better].metrics),
                         objective_value(objective, rows[row].metrics)));
}

std::string measured_advice(const std::vector<ComparedPolicy>& rows, size_t row,
                            const CompareObjective& objective) {
  const nlohmann::json& m = rows[row].metrics;
  const double own = objective_value(objective, m);
  const std::vector<size_t> order = rank_rows(rows, objective);
  std::string out;
  if (!order.empty() && order[0] == row) {
    out = "measured: " + rows[row].policy + " is the best measured";
  } else if (const std::optional<size_t> better = clearly_better(rows, row, objective)) {
    out = "measured: " + rows[*better].policy + ", " +
          percent_of(gain(objective, objective_value(objective, rows[*better].metrics), own)) + " better";
  } else if (!order.empty()) {
    out = "measured: none clearly better (" + rows[order[0]].policy + " is " +
          percent_of(gain(objective, objective_value(objective, rows[order[0]].metrics), own)) +
          " better, within the 95 % intervals)";
  }
  // The rule of thumb's pick, and what this comparison measured of the policy that applies it.
  const std::string recommendation = recommendation_of(m);
  out += "; rule of thumb: " + recommendation;
  const std::string remedy = policy_applying(recommendation);
  for (size_t i = 0; i < rows.size() && !remedy.empty(); ++i) {
    if (rows[i].policy != remedy || rows[i].metrics.is_null() || i == row) continue;
    const double g = gain(objective, objective_value(objective, rows[i].metrics), own);
    out +=
        " (measured " + remedy + ": " + percent_of(std::abs(g)) + (g >= 0 ? " better" : " worse") +
        (better_beyond_intervals(rows, i, row, objective) ? ")" : ", so this comparison does not back it)");
  }
  return out;
}

}  // namespace rlsim
