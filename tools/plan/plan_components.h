// Measured components: arrangements that give a pool the same configuration under the same policy
// run that pool's phase on the same trajectories, so what one simulation measured tightens the
// bound of the others. The rollout phase of a step depends on the rollout pool alone (card, nodes,
// TP), the training phase on the training pool alone, except for the order in which trajectories
// reach the trainer (it decides how each mini-batch splits over the ranks). An estimate takes the
// measured steady means at a margin below them (kRolloutReuse, kTrainReuse), the weight syncs at
// their datasheet bound, and combines them as the policy runs them:
//   colocated, disaggregated: rollout + train + sync;  overlap: max(train + sync, rollout · (n − s) / n);
//   streaming: train + syncs.
// Unlike plan_bound.h's bounds these are estimates: tests/cli/test_plan.cpp checks that a search
// using them finds the grid's front.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <tuple>

#include "tools/plan/plan_search.h"

namespace rlsim {

/// The margins below a measured phase at which an estimate takes it (measured × margin).
constexpr double kRolloutReuse = 0.98;
constexpr double kTrainReuse = 0.9;

class ComponentMemo {
 public:
  explicit ComponentMemo(const PoolShape& pools) : pools_(pools) {}
  /// Notes the phases `p`'s simulation measured.
  void record(const PlanPoint& p);
  /// The larger of `p`'s bound and its estimate from measured phases (its bound when none apply).
  double estimate(const PlanPoint& p) const;

 private:
  using Key =
      std::tuple<std::string, std::string, int, int, std::string>;  ///< policy, card, GPUs, TP, sharding
  Key rollout_key(const Arrangement& a) const;
  Key train_key(const Arrangement& a) const;
  const PoolShape& pools_;
  std::map<Key, double> rollout_s_, train_s_;
};

}  // namespace rlsim
