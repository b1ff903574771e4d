// LabelsSpec: the `labels:` section — which nodes may do what (capability tags) and how work on
// them may be interrupted — read by the `labels` policy. Fully colocated is every node tagged
// {rollout, train}; fully disaggregated is one tag per node; anything between is expressible.
#pragma once

#include <string>
#include <vector>

#include "models/input_error.h"
#include "sim/scenario/choices.h"

namespace rlsim {

/// Capability tags of a range of nodes of one pool.
struct NodeLabels {
  std::string pool;
  int first_node = 0;             ///< inclusive, 0-based within the pool
  int last_node = 0;              ///< inclusive
  std::vector<std::string> tags;  ///< rollout | train | reference | critic
  SourceLocation where;

  bool has(const std::string& tag) const {
    for (const auto& t : tags) {
      if (t == tag) return true;
    }
    return false;
  }
};

struct LabelsSpec {
  /// Explicit tags; empty means the default: training-pool nodes {train, rollout}, every other
  /// pool's nodes {rollout}.
  std::vector<NodeLabels> nodes;
  /// Whether a rollout on a train-tagged node can be stopped mid-call. When false, a node could
  /// only switch to training at a task boundary, which would hold the trainer, so train-tagged
  /// nodes are not lent to rollout at all (only pipeline overlap is left).
  bool interruptible = true;
  /// What happens to interrupted calls: save_kv (KV to host memory and back), recompute (KV
  /// dropped, re-prefilled on resume), migrate (calls move to other instances, re-prefilled there).
  Preemption preemption = Preemption::save_kv;
  /// How the rollout-tagged nodes are fed: `step` launches each step's trajectories together once
  /// the previous step's have all finished (the pipeline of policy `overlap`); `rolling` launches a
  /// new trajectory whenever one finishes, keeping one step's worth in flight, so the long tail of
  /// a step is filled with next-step work (partial-rollout style). Both respect max_staleness.
  LaunchMode launch = LaunchMode::step;

  /// Tags of node `node` of pool `pool` (the default mapping when `nodes` is empty).
  std::vector<std::string> tags_of(const std::string& pool, int node,
                                   const std::string& training_pool) const {
    if (nodes.empty()) {
      if (pool == training_pool) return {"rollout", "train"};
      return {"rollout"};
    }
    for (const auto& n : nodes) {
      if (n.pool == pool && node >= n.first_node && node <= n.last_node) return n.tags;
    }
    return {};
  }
};

}  // namespace rlsim
