// The arrangements of a GPU inventory (plan_space.h).
#include "tools/plan/plan_space.h"

#include <algorithm>
#include <sstream>

#include "models/input_error.h"
#include "models/units.h"

namespace rlsim {

std::vector<InventoryItem> parse_inventory(const std::string& text, const std::string& flag) {
  std::vector<InventoryItem> items;
  std::stringstream in(text);
  std::string entry;
  while (std::getline(in, entry, ',')) {
    if (entry.empty()) continue;
    InventoryItem item;
    const size_t colon = entry.find(':');
    item.card = entry.substr(0, colon);
    if (item.card.empty())
      throw InputError({flag, 0, 0}, "expected CARD or CARD:GPUS, found '" + entry + "'");
    if (colon != std::string::npos) {
      const std::string count = entry.substr(colon + 1);
      const bool digits =
          !count.empty() && count.size() <= 6 && count.find_first_not_of("0123456789") == std::string::npos;
      if (!digits || std::stoi(count) < 1)
        throw InputError({flag, 0, 0}, "expected a whole number of GPUs of " + item.card +
                                           " (1 to 999999), found '" + count + "'");
      item.gpus = std::stoi(count);
    }
    for (const InventoryItem& seen : items) {
      if (seen.card == item.card) throw InputError({flag, 0, 0}, "card '" + item.card + "' is listed twice");
    }
    items.push_back(item);
  }
  if (items.empty()) throw InputError({flag, 0, 0}, "expected at least one card, e.g. H800:64,H20:64");
  return items;
}

const std::vector<std::string>& plannable_policies() {
  static const std::vector<std::string> policies{"colocated", "disaggregated", "overlap", "streaming"};
  return policies;
}

bool synchronous_policy(const std::string& policy) {
  return policy == "colocated" || policy == "disaggregated";
}

namespace {

bool takes_staleness(const std::string& policy) { return !synchronous_policy(policy); }

}  // namespace

std::vector<std::string> Arrangement::sets(const PoolShape& pools) const {
  const std::string r = "cluster.pools." + pools.rollout_pool + ".",
                    t = "cluster.pools." + pools.train_pool + ".";
  std::vector<std::string> out{r + "gpu=" + rollout_card,
                               r + "nodes=" + std::to_string(rollout_nodes),
                               r + "usd_per_hour=" + format_number(rollout_usd_per_gpu_hour),
                               t + "gpu=" + train_card,
                               t + "nodes=" + std::to_string(train_nodes),
                               t + "usd_per_hour=" + format_number(train_usd_per_gpu_hour),
                               "rollout.tp=" + std::to_string(rollout_tp),
                               "training.tp=" + std::to_string(train_tp),
                               "policy.name=" + policy};
  if (takes_staleness(policy)) out.push_back("policy.max_staleness=" + std::to_string(max_staleness));
  if (!train_sharding.empty()) out.push_back("training.sharding=" + train_sharding);
  return out;
}

std::string Arrangement::describe(const PoolShape& pools) const {
  const std::string tps = "rollout tp " + std::to_string(rollout_tp) + ", train tp " +
                          std::to_string(train_tp) + (train_sharding.empty() ? "" : " " + train_sharding);
  if (policy == "colocated") {
    return "colocated: " + std::to_string(rollout_nodes + train_nodes) + "x" +
           std::to_string(pools.rollout_gpus_per_node) + " " + rollout_card + ", " + tps;
  }
  return policy + (takes_staleness(policy) ? " (staleness " + std::to_string(max_staleness) + ")" : "") +
         ": rollout " + std::to_string(rollout_nodes) + "x" + std::to_string(pools.rollout_gpus_per_node) +
         " " + rollout_card + " tp " + std::to_string(rollout_tp) + ", train " + std::to_string(train_nodes) +
         "x" + std::to_string(pools.train_gpus_per_node) + " " + train_card + " tp " +
         std::to_string(train_tp) + (train_sharding.empty() ? "" : " " + train_sharding);
}

std::vector<Arrangement> arrangement_space(const std::vector<CardStock>& stock, const PoolShape& pools,
                                           const PlanSpaceOptions& options) {
  std::vector<Arrangement> out;
  const auto within_budget = [&](double usd) {
    return !options.budget_usd_per_hour || usd <= *options.budget_usd_per_hour * (1.0 + 1e-12);
  };
  const auto add = [&](Arrangement a, const CardStock& r, const CardStock& t) {
    const int rollout_gpus = a.rollout_nodes * pools.rollout_gpus_per_node;
    const int train_gpus = a.train_nodes * pools.train_gpus_per_node;
    a.gpus = rollout_gpus + train_gpus;
    a.rollout_usd_per_gpu_hour = r.usd_per_gpu_hour;
    a.train_usd_per_gpu_hour = t.usd_per_gpu_hour;
    a.usd_per_hour = rollout_gpus * r.usd_per_gpu_hour + train_gpus * t.usd_per_gpu_hour;
    if (!within_budget(a.usd_per_hour)) return;
    const std::vector<std::string> shardings =
        options.train_shardings.empty() ? std::vector<std::string>{""} : options.train_shardings;
    for (int rollout_tp : options.rollout_tps) {
      for (int train_tp : options.train_tps) {
        for (const std::string& sharding : shardings) {
          a.rollout_tp = rollout_tp;
          a.train_tp = train_tp;
          a.train_sharding = sharding;
          out.push_back(a);
        }
      }
    }
  };
  for (const std::string& policy : options.policies) {
    Arrangement base;
    base.policy = policy;
    base.max_staleness = takes_staleness(policy) ? options.max_staleness : 0;
    for (const CardStock& r : stock) {
      if (policy == "colocated") {
        // One card; the policy pools both pools, so only the total counts (rollout takes the odd node).
        const int node = std::max(pools.rollout_gpus_per_node, pools.train_gpus_per_node);
        for (int nodes = 2; nodes * node <= r.gpus; ++nodes) {
          Arrangement a = base;
          a.rollout_card = a.train_card = r.card;
          a.rollout_nodes = nodes - nodes / 2;
          a.train_nodes = nodes / 2;
          add(a, r, r);
        }
        continue;
      }
      for (const CardStock& t : stock) {
        for (int rn = 1; rn * pools.rollout_gpus_per_node <= r.gpus; ++rn) {
          for (int tn = 1; tn * pools.train_gpus_per_node <= t.gpus; ++tn) {
            if (r.card == t.card &&
                rn * pools.rollout_gpus_per_node + tn * pools.train_gpus_per_node > r.gpus)
              break;
            Arrangement a = base;
            a.rollout_card = r.card;
            a.rollout_nodes = rn;
            a.train_card = t.card;
            a.train_nodes = tn;
            add(a, r, t);
          }
        }
      }
    }
  }
  return out;
}

}  // namespace rlsim
