// The arrangement space `rlsim plan` searches. A GPU inventory (`--gpus H800:64,H20:64`: cards and
// how many of each; a card without a count is limited by `--budget-usd-per-hour` alone), the
// policies, and the rollout's and the trainer's TP degrees make a grid of arrangements: which card
// and how many nodes for the scenario's rollout pool and its training pool, rollout.tp, training.tp
// (and training.sharding when asked) and the policy. Each arrangement is the `--set` overrides that make it
// from the scenario, so every one runs as `rlsim run S.yaml --set …` would. A colocated arrangement is one
// card and one node count (both pools the same card; the colocated policy pools them). Nothing here
// simulates.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace rlsim {

/// One card of the inventory: its name and how many GPUs of it (none: only the budget limits it).
struct InventoryItem {
  std::string card;
  std::optional<int> gpus;
};

/// `--gpus` as written ("H800:64,H20:64", "H800,H20"); InputError at `flag` when malformed.
std::vector<InventoryItem> parse_inventory(const std::string& text, const std::string& flag);

/// A card as the search uses it: GPUs at hand (or the budget's limit), price per GPU-hour.
struct CardStock {
  std::string card;
  int gpus = 0;
  double usd_per_gpu_hour = 0.0;
};

/// The scenario's two pools: their names and nodes' sizes (whole nodes are moved).
struct PoolShape {
  std::string rollout_pool, train_pool;
  int rollout_gpus_per_node = 8, train_gpus_per_node = 8;
};

struct PlanSpaceOptions {
  std::vector<std::string> policies;  ///< colocated, disaggregated, overlap, streaming
  std::vector<int> rollout_tps, train_tps;
  /// Training's ZeRO/FSDP sharding to try (training.sharding values); empty: the scenario's own.
  std::vector<std::string> train_shardings;
  int max_staleness = 1;  ///< for the policies that take one
  std::optional<double> budget_usd_per_hour;
};

/// The policies whose step the planner bounds (plan_bound.h) and so may search.
const std::vector<std::string>& plannable_policies();
/// Whether `policy` runs rollout and training one after the other (colocated, disaggregated).
bool synchronous_policy(const std::string& policy);

struct Arrangement {
  std::string policy;
  std::string rollout_card;
  int rollout_nodes = 0, rollout_tp = 1;
  std::string train_card;
  int train_nodes = 0, train_tp = 1;
  std::string train_sharding;  ///< empty: the scenario's own
  int max_staleness = 0;       ///< overlap and streaming only
  int gpus = 0;
  double usd_per_hour = 0.0;
  /// Each pool's price per GPU-hour, set with the card (a pool's own price follows its card).
  double rollout_usd_per_gpu_hour = 0.0, train_usd_per_gpu_hour = 0.0;

  /// The `--set` overrides that make it from the scenario.
  std::vector<std::string> sets(const PoolShape& pools) const;
  /// "disaggregated: rollout 6×8 H20 tp 1, train 2×8 H800 tp 2" (nodes × GPUs per node).
  std::string describe(const PoolShape& pools) const;
};

/// Every arrangement of the inventory (each card's GPUs at most once, the budget respected), in a
/// fixed order: by policy, then cards, nodes and TP degrees.
std::vector<Arrangement> arrangement_space(const std::vector<CardStock>& stock, const PoolShape& pools,
                                           const PlanSpaceOptions& options);

}  // namespace rlsim
