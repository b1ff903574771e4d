// LabelLayout: the `labels` policy's view of the cluster — inference instances (rollout.tp GPUs
// each) on every node tagged rollout, split into the flexible ones whose node is also tagged train
// (they roll out while the trainer waits and are preempted when it trains) and the rollout-only
// ones (they keep generating, one step off-policy, while the trainer trains).
#pragma once

#include <vector>

#include "sim/engine/rl_context.h"

namespace rlsim {

struct LabelLayout {
  std::vector<GpuGroup> instances;  ///< every rollout-capable TP group, pools in scenario order
  std::vector<int> flexible;        ///< indices into `instances` on train-tagged nodes
  std::vector<int> rollout_only;    ///< the other indices
  GpuGroup idle_trainers;           ///< training GPUs not lent to rollout (they wait for data)
  GpuGroup lent_trainers;           ///< training GPUs of the flexible instances (they switch phase)
};

/// Applies `context.scenario.labels` to the GPUs of `context.pools`.
LabelLayout label_layout(const RlContext& context);

}  // namespace rlsim
