// Estimates of an arrangement's step from the phases other simulations measured (plan_components.h).
#include "tools/plan/plan_components.h"

#include <algorithm>

namespace rlsim {

ComponentMemo::Key ComponentMemo::rollout_key(const Arrangement& a) const {
  // Colocated: the rollout runs on both pools' GPUs.
  const int gpus = a.rollout_nodes * pools_.rollout_gpus_per_node +
                   (a.policy == "colocated" ? a.train_nodes * pools_.train_gpus_per_node : 0);
  return {a.policy, a.rollout_card, gpus, a.rollout_tp, ""};
}

ComponentMemo::Key ComponentMemo::train_key(const Arrangement& a) const {
  const int gpus = a.train_nodes * pools_.train_gpus_per_node +
                   (a.policy == "colocated" ? a.rollout_nodes * pools_.rollout_gpus_per_node : 0);
  return {a.policy, a.train_card, gpus, a.train_tp, a.train_sharding};
}

void ComponentMemo::record(const PlanPoint& p) {
  if (p.status != PointStatus::simulated) return;
  // The streaming trainer's wait for trajectories is its "rollout" phase: not the pool's own.
  // The smallest of what was measured for a key, whatever order the simulations finished in.
  const auto keep = [](std::map<Key, double>& memo, const Key& key, double seconds) {
    const auto [at, added] = memo.emplace(key, seconds);
    if (!added) at->second = std::min(at->second, seconds);
  };
  if (p.arrangement.policy != "streaming") keep(rollout_s_, rollout_key(p.arrangement), p.figures.rollout_s);
  keep(train_s_, train_key(p.arrangement), p.figures.train_s);
}

double ComponentMemo::estimate(const PlanPoint& p) const {
  const Arrangement& a = p.arrangement;
  const auto rollout = rollout_s_.find(rollout_key(a));
  const auto train = train_s_.find(train_key(a));
  const bool has_rollout = rollout != rollout_s_.end() && a.policy != "streaming",
             has_train = train != train_s_.end();
  const double r = has_rollout ? kRolloutReuse * rollout->second : 0.0;
  const double t = has_train ? kTrainReuse * train->second + p.weight_sync_bound_s : 0.0;
  double estimate = 0.0;
  if (a.policy == "overlap") {
    const int n = std::max(1, p.steady_steps);
    estimate = std::max(t, r * std::max(0, n - a.max_staleness) / n);
  } else if (a.policy == "streaming") {
    estimate = t;
  } else if (has_rollout && has_train) {
    estimate = r + t;
  }
  return std::max(p.bound_s, estimate);
}

}  // namespace rlsim
