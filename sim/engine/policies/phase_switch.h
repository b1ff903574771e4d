// Phase switches of a GPU that both trains and rolls out (colocation, label scheduling): what a
// switch costs per GPU, from the model size and the scenario's host-memory link, and running it.
// To training: the optimizer state of the GPU's training shard (its share under ZeRO sharding)
// comes back from host memory. To
// rollout: it goes out again and the inference weights of the GPU's rollout shard are reloaded.
#pragma once

#include "sim/engine/rl_context.h"

namespace rlsim {

struct PhaseSwitchCosts {
  double to_train_s = 0.0;
  double to_rollout_s = 0.0;
};

PhaseSwitchCosts phase_switch_costs(const Scenario& scenario);

/// Runs `seconds` of switching on every GPU of `group` at once; records `switching`.
void run_switch(RlContext& context, const GpuGroup& group, double seconds, int step);

}  // namespace rlsim
