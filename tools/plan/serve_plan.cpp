// The cheapest serving deployment that meets an SLO (serve_plan.h).
#include "tools/plan/serve_plan.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <stdexcept>

#include "models/units.h"
#include "sim/engine/serving/serve_simulation.h"
#include "sim/process/child_pool.h"
#include "sim/scenario/serve_reader.h"
#include "tools/plan/plan_search.h"
#include "tools/report/serve_report.h"
#include "tools/report/text_format.h"

namespace rlsim {

std::vector<std::string> ServeArrangement::sets(const std::string& pool) const {
  const std::string p = "cluster.pools." + pool + ".";
  return {p + "gpu=" + card, p + "nodes=" + std::to_string(nodes),
          p + "usd_per_hour=" + format_number(usd_per_gpu_hour), "serve.tp=" + std::to_string(tp)};
}

std::string ServeArrangement::describe() const {
  return std::to_string(nodes) + "x" + std::to_string(gpus_per_node) + " " + card + ", tp " +
         std::to_string(tp) + " (" + std::to_string(gpus() / tp) + " instance" +
         (gpus() / tp == 1 ? "" : "s") + ")";
}

std::vector<ServeArrangement> serve_arrangement_space(const std::vector<CardStock>& stock, int gpus_per_node,
                                                      const std::vector<int>& tps,
                                                      std::optional<double> budget_usd_per_hour) {
  std::vector<ServeArrangement> out;
  for (const CardStock& c : stock) {
    for (int nodes = 1; nodes * gpus_per_node <= c.gpus; ++nodes) {
      for (int tp : tps) {
        ServeArrangement a{c.card, nodes, gpus_per_node, tp, c.usd_per_gpu_hour};
        if (a.gpus() % tp != 0) continue;
        if (budget_usd_per_hour && a.usd_per_hour() > *budget_usd_per_hour * (1.0 + 1e-12)) continue;
        out.push_back(a);
      }
    }
  }
  return out;
}

std::string serve_status_name(ServeStatus status) {
  switch (status) {
    case ServeStatus::meets_slo: return "meets the SLO";
    case ServeStatus::misses_slo: return "misses the SLO";
    case ServeStatus::refused_memory: return "does not fit memory";
    case ServeStatus::refused: return "refused";
    case ServeStatus::dearer: return "dearer than one that meets the SLO";
    case ServeStatus::not_reached: return "not reached";
  }
  return "";
}

namespace {

/// Runs in a child: the scenario with `sets`, simulated; p99 TTFT and TPOT, tokens/s and whether
/// they meet the SLO, or why it did not run.
std::string simulate_deployment(const std::string& file, LoadOptions options,
                                const std::vector<std::string>& sets) {
  for (const std::string& set : sets) options.overrides.push_back(set);
  try {
    const LoadedServeScenario loaded = load_serve_scenario(file, options);
    const ServingMetrics m = simulate_serve(loaded.scenario).metrics;
    return nlohmann::json{{"ran", true},
                          {"meets", meets_slo(loaded.scenario.workload, m)},
                          {"ttft_s", m.ttft_s.p99},
                          {"tpot_s", m.tpot_s.p99},
                          {"tokens_per_s", m.output_tokens_per_s}}
        .dump();
  } catch (const InputError& e) {
    return nlohmann::json{{"ran", false},
                          {"memory", e.message().find("does not fit") != std::string::npos},
                          {"why", e.message()}}
        .dump();
  }
}

}  // namespace

void search_serve_plan(const std::string& file, const LoadOptions& base, const std::string& pool,
                       std::vector<ServePoint>& points, int jobs, int max_points) {
  std::vector<size_t> order(points.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const ServeArrangement &x = points[a].arrangement, &y = points[b].arrangement;
    return x.usd_per_hour() != y.usd_per_hour() ? x.usd_per_hour() < y.usd_per_hour() : x.gpus() < y.gpus();
  });
  std::optional<double> met_at;  // the price per hour of the cheapest that met the SLO
  size_t next = 0;
  int loaded = 0;
  while (next < order.size() && loaded < max_points) {
    std::vector<long> batch;
    while (next < order.size() && batch.size() < static_cast<size_t>(kPlanBatch) &&
           loaded + static_cast<int>(batch.size()) < max_points) {
      ServePoint& p = points[order[next++]];
      if (met_at && p.arrangement.usd_per_hour() > *met_at) {
        p.status = ServeStatus::dearer;
        continue;
      }
      batch.push_back(static_cast<long>(order[next - 1]));
    }
    if (batch.empty()) continue;
    const ChildOutcome failure = run_in_children(
        batch, jobs,
        [&](long i) {
          return simulate_deployment(file, base, points[static_cast<size_t>(i)].arrangement.sets(pool));
        },
        [&](const ChildOutcome& c) {
          if (!c.ok) return;
          const nlohmann::json j = nlohmann::json::parse(c.text);
          ServePoint& p = points[static_cast<size_t>(c.job)];
          if (!j["ran"].get<bool>()) {
            p.status = j["memory"].get<bool>() ? ServeStatus::refused_memory : ServeStatus::refused;
            p.why_not = j["why"].get<std::string>();
            return;
          }
          p.status = j["meets"].get<bool>() ? ServeStatus::meets_slo : ServeStatus::misses_slo;
          p.ttft_p99_s = j["ttft_s"].get<double>();
          p.tpot_p99_s = j["tpot_s"].get<double>();
          p.output_tokens_per_s = j["tokens_per_s"].get<double>();
        });
    if (!failure.ok) rethrow_child_failure(failure, "a plan point");
    loaded += static_cast<int>(batch.size());
    for (long i : batch) {
      const ServePoint& p = points[static_cast<size_t>(i)];
      if (p.status == ServeStatus::meets_slo)
        met_at = std::min(met_at.value_or(p.arrangement.usd_per_hour()), p.arrangement.usd_per_hour());
    }
  }
}

std::optional<size_t> chosen_serve_point(const std::vector<ServePoint>& points) {
  std::optional<size_t> best;
  for (size_t i = 0; i < points.size(); ++i) {
    if (points[i].status != ServeStatus::meets_slo) continue;
    const ServeArrangement& a = points[i].arrangement;
    if (!best ||
        std::make_pair(a.usd_per_hour(), a.gpus()) <
            std::make_pair(points[*best].arrangement.usd_per_hour(), points[*best].arrangement.gpus()))
      best = i;
  }
  return best;
}

std::string serve_plan_text(const std::vector<ServePoint>& points, const std::string& scenario_name,
                            const std::string& slo, const std::string& pool, const std::string& run_arguments,
                            const std::string& out_dir) {
  std::map<ServeStatus, size_t> counts;
  for (const ServePoint& p : points) ++counts[p.status];
  const auto count = [&](ServeStatus s) { return counts.count(s) ? counts.at(s) : size_t{0}; };
  const size_t simulated = count(ServeStatus::meets_slo) + count(ServeStatus::misses_slo);
  std::string text = "rlsim plan: " + scenario_name + " (serving; SLO " + slo + " at p99)\n";
  text += "  searched    " + std::to_string(simulated) + " simulated of " + std::to_string(points.size()) +
          " arrangements, cheapest per hour first; " + std::to_string(count(ServeStatus::refused_memory)) +
          " did not fit memory, " + std::to_string(count(ServeStatus::dearer)) +
          " left out as dearer than one that met the SLO" +
          (count(ServeStatus::not_reached)
               ? ", " + std::to_string(count(ServeStatus::not_reached)) + " not reached"
               : "") +
          "\n";
  text += "  " + padded("USD/h", 9) + padded("GPUs", 6) + padded("TTFT p99", 13) + padded("TPOT p99", 11) +
          padded("tokens/s", 10) + padded("SLO", 6) + "arrangement\n";
  std::vector<size_t> ran;
  for (size_t i = 0; i < points.size(); ++i) {
    if (points[i].status == ServeStatus::meets_slo || points[i].status == ServeStatus::misses_slo)
      ran.push_back(i);
  }
  std::stable_sort(ran.begin(), ran.end(), [&](size_t a, size_t b) {
    return points[a].arrangement.usd_per_hour() < points[b].arrangement.usd_per_hour();
  });
  const std::optional<size_t> chosen = chosen_serve_point(points);
  for (size_t i : ran) {
    const ServePoint& p = points[i];
    text +=
        (chosen && *chosen == i ? "* " : "  ") + padded(fixed(p.arrangement.usd_per_hour(), 2), 9) +
        padded(std::to_string(p.arrangement.gpus()), 6) + padded(fixed(1e3 * p.ttft_p99_s, 1) + " ms", 13) +
        padded(fixed(1e3 * p.tpot_p99_s, 2) + " ms", 11) + padded(fixed(p.output_tokens_per_s, 0), 10) +
        padded(p.status == ServeStatus::meets_slo ? "met" : "missed", 6) + p.arrangement.describe() + "\n";
  }
  if (!chosen) {
    text += "chosen: none of the arrangements simulated meets the SLO\n";
  } else {
    const ServePoint& c = points[*chosen];
    text += "chosen (the cheapest per hour that meets the SLO): " + c.arrangement.describe() + ", " +
            formatted("%.2f USD/h", c.arrangement.usd_per_hour()) + "\n";
    text += "  run it: rlsim run " + out_dir + "/plan.yaml\n     or: rlsim run " + run_arguments;
    for (const std::string& set : c.arrangement.sets(pool)) text += " --set " + set;
    text += "\n";
  }
  text += "outputs: " + out_dir + "/{plan.csv" + std::string(chosen ? ",plan.yaml" : "") + "}\n";
  return text;
}

std::string serve_plan_csv(const std::vector<ServePoint>& points) {
  std::string csv = "card,gpus,tp,usd_per_hour,status,ttft_p99_s,tpot_p99_s,output_tokens_per_s\n";
  for (const ServePoint& p : points) {
    const bool ran = p.status == ServeStatus::meets_slo || p.status == ServeStatus::misses_slo;
    csv += p.arrangement.card + "," + std::to_string(p.arrangement.gpus()) + "," +
           std::to_string(p.arrangement.tp) + "," + format_number(p.arrangement.usd_per_hour()) + "," +
           serve_status_name(p.status) + "," + (ran ? format_number(p.ttft_p99_s) : "") + "," +
           (ran ? format_number(p.tpot_p99_s) : "") + "," +
           (ran ? format_number(p.output_tokens_per_s) : "") + "\n";
  }
  return csv;
}

}  // namespace rlsim
