// `rlsim plan`'s text, plan.csv, front.svg and plan.yaml header (plan_report.h).
#include "tools/plan/plan_report.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "models/units.h"
#include "tools/report/svg_plot.h"
#include "tools/report/text_format.h"

namespace rlsim {
namespace {

std::string count_text(size_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string join_ints(const std::vector<int>& values) {
  std::string out;
  for (int v : values) out += (out.empty() ? "" : ",") + std::to_string(v);
  return out;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string percent_change(double now, double was) {
  return was > 0.0 ? formatted("%+.1f %%", 100.0 * (now / was - 1.0)) : std::string("-");
}

/// What the choice was: "fastest steady step", …
std::string choice_name(const PlanReportInput& in) {
  if (in.search.target_step_s)
    return "cheapest per hour with a steady step of at most " + readable_duration(*in.search.target_step_s);
  return in.by_cost ? "cheapest per steady step" : "fastest steady step";
}

/// The fields in which `a` differs from `b`, "train tp 2 (runner-up 1)", joined.
std::string differences(const Arrangement& a, const Arrangement& b) {
  std::vector<std::string> out;
  const auto note = [&](const std::string& what, const std::string& mine, const std::string& theirs) {
    if (mine != theirs) out.push_back(what + " " + mine + " (runner-up " + theirs + ")");
  };
  note("policy", a.policy, b.policy);
  note("rollout card", a.rollout_card, b.rollout_card);
  note("rollout nodes", std::to_string(a.rollout_nodes), std::to_string(b.rollout_nodes));
  note("rollout tp", std::to_string(a.rollout_tp), std::to_string(b.rollout_tp));
  note("train card", a.train_card, b.train_card);
  note("train nodes", std::to_string(a.train_nodes), std::to_string(b.train_nodes));
  note("train tp", std::to_string(a.train_tp), std::to_string(b.train_tp));
  note("train sharding", a.train_sharding, b.train_sharding);
  return joined(out, ", ");
}

/// The scenario's own arguments and the arrangement's overrides, as `rlsim run` takes them (the
/// overrides hold no character a shell would read).
std::string run_arguments(const PlanReportInput& in, const Arrangement& a) {
  std::string text = in.scenario_arguments;
  for (const std::string& set : a.sets(in.pools)) text += " --set " + set;
  return text;
}

std::string figures_line(const PlanPoint& p) {
  const TrialFigures& f = p.figures;
  return "steady step " + readable_duration(f.steady_step_s) +
         (f.steady_half_width_s > 0.0 ? " ± " + readable_duration(f.steady_half_width_s) : "") + ", " +
         formatted("%.2f USD/step", p.usd_per_step()) + ", " +
         formatted("%.2f USD/h", p.arrangement.usd_per_hour) + ", " + std::to_string(p.arrangement.gpus) +
         " GPUs, staleness " + formatted("%.2f", f.staleness);
}

}  // namespace

PlanOutcome plan_outcome(const std::vector<PlanPoint>& points, const PlanReportInput& in) {
  PlanOutcome out;
  out.front = pareto_front(points);
  out.chosen = chosen_point(points, in.search, in.by_cost);
  if (out.chosen) {
    std::vector<PlanPoint> rest = points;
    rest[*out.chosen].status = PointStatus::not_reached;
    out.runner_up = chosen_point(rest, in.search, in.by_cost);
  }
  return out;
}

std::string plan_text(const std::vector<PlanPoint>& points, const PlanOutcome& outcome,
                      const PlanReportInput& in) {
  const Scenario& s = in.scenario;
  std::string text =
      "rlsim plan: " + s.name + " (model " + s.model.name + ", " + std::to_string(s.workload.steps) +
      " steps of " + std::to_string(s.workload.prompts_per_step) + " prompts x " +
      std::to_string(s.workload.samples_per_prompt) + " samples, seed " + std::to_string(s.seed) + ")\n";
  text += "  inventory   ";
  for (size_t i = 0; i < in.stock.size(); ++i) {
    text += (i ? ", " : "") + in.stock[i].card + " " + std::to_string(in.stock[i].gpus) + " GPUs at " +
            formatted("%.2f USD/GPU-h", in.stock[i].usd_per_gpu_hour);
  }
  if (in.space.budget_usd_per_hour) text += formatted("; budget %.2f USD/h", *in.space.budget_usd_per_hour);
  text += "\n";
  std::string policies;
  for (const std::string& p : in.space.policies) policies += (policies.empty() ? "" : ", ") + p;
  text +=
      "  space       " + count_text(points.size()) + " arrangements: policies " + policies +
      " (max staleness " + std::to_string(in.space.max_staleness) + "), rollout tp " +
      join_ints(in.space.rollout_tps) + ", train tp " + join_ints(in.space.train_tps) +
      (in.space.train_shardings.empty() ? "" : ", train sharding " + joined(in.space.train_shardings, ",")) +
      ", whole nodes of " + std::to_string(in.pools.rollout_gpus_per_node) + " GPUs per pool\n";
  std::map<PointStatus, size_t> counts;
  for (const PlanPoint& p : points) ++counts[p.status];
  const auto count = [&](PointStatus st) { return counts.count(st) ? counts.at(st) : size_t{0}; };
  size_t reused = 0;
  for (const PlanPoint& p : points) reused += p.reused;
  text += "  searched    " + count_text(count(PointStatus::simulated)) + " simulated, " +
          count_text(count(PointStatus::refused_memory)) + " did not fit memory (loaded, not simulated), " +
          count_text(count(PointStatus::refused)) + " refused by the scenario's checks, " +
          count_text(count(PointStatus::dominated) + count(PointStatus::misses_target) +
                     count(PointStatus::dearer)) +
          " left out by their lower bounds" + (in.search.exhaustive ? " (--exhaustive: none)" : "") + "\n";
  if (reused > 0) {
    text +=
        "  reused      " + count_text(reused) +
        " of them from earlier plans of the same scenario (plan-points.json: this folder's, and --reuse's)\n";
  }
  if (count(PointStatus::not_reached) > 0) {
    text +=
        "  stopped at --max-points " + std::to_string(in.search.max_points) + ": " +
        count_text(count(PointStatus::not_reached)) +
        " arrangements not reached; the front is of what was simulated (raise --max-points to search on)\n";
  }
  text +=
      in.search.target_step_s
          ? "front of the arrangements simulated (a target leaves out those that cannot meet it or cost more "
            "per hour than one that did), fastest first\n"
          : "front: the arrangements no other beats on both steady step time and GPU cost per step, fastest "
            "first\n";
  text += "  " + padded("step", 10) + padded("USD/step", 10) + padded("USD/h", 9) + padded("GPUs", 6) +
          padded("staleness", 10) + "arrangement\n";
  for (size_t i : outcome.front) {
    const PlanPoint& p = points[i];
    text += (outcome.chosen && *outcome.chosen == i ? "* " : "  ") +
            padded(readable_duration(p.figures.steady_step_s), 10) + padded(fixed(p.usd_per_step(), 2), 10) +
            padded(fixed(p.arrangement.usd_per_hour, 2), 9) + padded(std::to_string(p.arrangement.gpus), 6) +
            padded(fixed(p.figures.staleness, 2), 10) + p.arrangement.describe(in.pools) + "\n";
  }
  if (outcome.front.empty()) text += "  (none: no arrangement ran; plan.csv says why each did not)\n";
  if (!outcome.chosen) {
    text += in.search.target_step_s ? "chosen: none meets the target step time of " +
                                          readable_duration(*in.search.target_step_s) + "\n"
                                    : "chosen: none\n";
  } else {
    const PlanPoint& c = points[*outcome.chosen];
    text += "chosen (" + choice_name(in) + "): " + c.arrangement.describe(in.pools) + "\n";
    text += "  " + figures_line(c) + "\n";
    if (outcome.runner_up) {
      const PlanPoint& r = points[*outcome.runner_up];
      text += "  runner-up: " + r.arrangement.describe(in.pools) + "\n";
      text += "    " + figures_line(r) + "\n";
      text += "  the chosen one's step " + percent_change(c.figures.steady_step_s, r.figures.steady_step_s) +
              ", cost per step " + percent_change(c.usd_per_step(), r.usd_per_step()) + ", per hour " +
              percent_change(c.arrangement.usd_per_hour, r.arrangement.usd_per_hour) + "; it differs in " +
              differences(c.arrangement, r.arrangement) + "\n";
      const double apart = std::abs(c.figures.steady_step_s - r.figures.steady_step_s);
      if (apart <= std::max(c.figures.steady_half_width_s, r.figures.steady_half_width_s)) {
        text +=
            "  the two steps are within each other's 95 % intervals: the simulation does not tell them "
            "apart\n";
        if (r.usd_per_step() < c.usd_per_step())
          text += "  the runner-up costs " +
                  formatted("%.1f %%", 100.0 * (1.0 - r.usd_per_step() / c.usd_per_step())) +
                  " less per step (--objective usd_per_step chooses by cost)\n";
      }
    }
    text += "  run it: rlsim run " + in.out_dir + "/plan.yaml\n";
    text += "     or: rlsim run " + run_arguments(in, c.arrangement) + "\n";
  }
  return text;
}

std::string plan_csv(const std::vector<PlanPoint>& points, const PoolShape& pools) {
  std::string csv =
      "policy,rollout_card,rollout_gpus,rollout_tp,train_card,train_gpus,train_tp,train_sharding,max_"
      "staleness,gpus,usd_per_"
      "hour,"
      "bound_step_s,estimate_step_s,status,steady_step_s,steady_half_width_s,usd_per_step,staleness_versions,"
      "why_not\n";
  for (const PlanPoint& p : points) {
    const Arrangement& a = p.arrangement;
    const bool ran = p.status == PointStatus::simulated;
    csv += a.policy + "," + a.rollout_card + "," +
           std::to_string(a.rollout_nodes * pools.rollout_gpus_per_node) + "," +
           std::to_string(a.rollout_tp) + "," + a.train_card + "," +
           std::to_string(a.train_nodes * pools.train_gpus_per_node) + "," + std::to_string(a.train_tp) +
           "," + a.train_sharding + "," + std::to_string(a.max_staleness) + "," + std::to_string(a.gpus) +
           "," + format_number(a.usd_per_hour) + "," + format_number(p.bound_s) + "," +
           (p.status == PointStatus::not_reached ? "" : format_number(p.estimate_s)) + "," +
           csv_field(status_name(p.status)) + "," + (ran ? format_number(p.figures.steady_step_s) : "") +
           "," + (ran ? format_number(p.figures.steady_half_width_s) : "") + "," +
           (ran ? format_number(p.usd_per_step()) : "") + "," +
           (ran ? format_number(p.figures.staleness) : "") + "," + csv_field(p.figures.why_not) + "\n";
  }
  return csv;
}

std::string plan_front_svg(const std::vector<PlanPoint>& points, const PlanOutcome& outcome,
                           const PlanReportInput& in) {
  LinePlot plot;
  plot.title = "rlsim plan: " + in.scenario.name + " (" + in.scenario.model.name + ")";
  size_t simulated = 0;
  for (const PlanPoint& p : points) simulated += p.status == PointStatus::simulated;
  plot.subtitle = count_text(simulated) + " arrangements simulated of " + count_text(points.size()) +
                  "; the front joined, the others hollow";
  plot.x_label = "GPU cost per steady step (USD)";
  plot.left_label = "steady step time (s)";
  PlotSeries front{"front: no other is both faster and cheaper", {}, false, false, {}, false};
  for (size_t i : outcome.front)
    front.points.emplace_back(points[i].usd_per_step(), points[i].figures.steady_step_s);
  // Cheapest first, so the line runs along the front.
  std::sort(front.points.begin(), front.points.end());
  PlotSeries others{"other arrangements simulated", {}, false, false, {}, true};
  for (size_t i = 0; i < points.size(); ++i) {
    if (points[i].status != PointStatus::simulated) continue;
    if (std::find(outcome.front.begin(), outcome.front.end(), i) != outcome.front.end()) continue;
    others.points.emplace_back(points[i].usd_per_step(), points[i].figures.steady_step_s);
    others.greyed.push_back(true);
  }
  // The others first, so that the front is drawn over them.
  if (!others.points.empty()) plot.series.push_back(others);
  plot.series.push_back(front);
  if (in.search.target_step_s) {
    plot.reference = *in.search.target_step_s;
    plot.reference_label = "target " + readable_duration(*in.search.target_step_s);
  }
  if (outcome.chosen) {
    const PlanPoint& c = points[*outcome.chosen];
    plot.best = PlotMarker{c.usd_per_step(), c.figures.steady_step_s, false,
                           "chosen: " + readable_duration(c.figures.steady_step_s) + ", " +
                               formatted("%.2f USD/step", c.usd_per_step())};
  }
  return render_svg(plot);
}

std::string plan_yaml_header(const PlanPoint& chosen, const PlanReportInput& in) {
  return "# rlsim plan's chosen arrangement (" + choice_name(in) +
         "): " + chosen.arrangement.describe(in.pools) + "\n# simulated: " + figures_line(chosen) +
         "\n# made from: rlsim run " + run_arguments(in, chosen.arrangement) + "\n";
}

}  // namespace rlsim
