// `rlsim plan` for a serving scenario (`kind: serve`): the cheapest deployment of an inventory that
// meets the workload's SLO (its p99 TTFT and TPOT, workload.slo) at the workload's load. An
// arrangement is the serving pool's card, whole nodes and TP (the instances are its GPUs over TP);
// arrangements are simulated cheapest per hour first, a fixed batch at a time, and once one meets
// the SLO every dearer one is left out: the first that meets it is the answer, whatever a search of
// the rest would find. Without an SLO the plan has nothing to meet and says so.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/scenario/scenario_loader.h"
#include "tools/plan/plan_space.h"

namespace rlsim {

struct ServeArrangement {
  std::string card;
  int nodes = 1, gpus_per_node = 1, tp = 1;
  double usd_per_gpu_hour = 0.0;
  int gpus() const { return nodes * gpus_per_node; }
  double usd_per_hour() const { return gpus() * usd_per_gpu_hour; }
  /// The `--set` overrides that make it from the scenario (its pool `pool`).
  std::vector<std::string> sets(const std::string& pool) const;
  /// "4x2 H100, tp 2 (4 instances)".
  std::string describe() const;
};

/// Every arrangement of `stock` for a pool of `gpus_per_node` GPUs a node: 1 node up to the card's
/// GPUs, each TP of `tps` that divides the pool's GPUs; within the budget when there is one.
std::vector<ServeArrangement> serve_arrangement_space(const std::vector<CardStock>& stock, int gpus_per_node,
                                                      const std::vector<int>& tps,
                                                      std::optional<double> budget_usd_per_hour);

enum class ServeStatus { meets_slo, misses_slo, refused_memory, refused, dearer, not_reached };
std::string serve_status_name(ServeStatus status);

struct ServePoint {
  ServeArrangement arrangement;
  ServeStatus status = ServeStatus::not_reached;
  std::string why_not;
  double ttft_p99_s = 0.0, tpot_p99_s = 0.0, output_tokens_per_s = 0.0;
};

/// Simulates `points` cheapest per hour first (`jobs` at a time, at most `max_points`), leaving out
/// what costs more per hour than an arrangement that met the SLO.
void search_serve_plan(const std::string& file, const LoadOptions& base, const std::string& pool,
                       std::vector<ServePoint>& points, int jobs, int max_points);

/// The text: how many were simulated, each simulated arrangement by price, the chosen one and the
/// command that runs it (`run_arguments`: the scenario and its --set, `pool`: the serving pool).
std::string serve_plan_text(const std::vector<ServePoint>& points, const std::string& scenario_name,
                            const std::string& slo, const std::string& pool, const std::string& run_arguments,
                            const std::string& out_dir);
std::string serve_plan_csv(const std::vector<ServePoint>& points);
/// The cheapest arrangement per hour that met the SLO (then the fewer GPUs), if any.
std::optional<size_t> chosen_serve_point(const std::vector<ServePoint>& points);

}  // namespace rlsim
