// Switch costs and switch execs.
#include "sim/engine/policies/phase_switch.h"

#include "models/arch_params.h"
#include "models/memory/inference_memory.h"
#include "sim/scenario/memory_check.h"

namespace rlsim {
namespace sg4 = simgrid::s4u;

PhaseSwitchCosts phase_switch_costs(const Scenario& s) {
  // A GPU holds the optimizer state of its TP × PP shard, split again over DP under ZeRO (stage 1 on).
  const int zero_split = s.training.sharding >= Sharding::zero1 ? training_dp_in_use(s) : 1;
  const double shard_params = total_params(s.model) / (s.training.tp * s.training.pp) / zero_split;
  const double host_bw = s.colocation.host_bandwidth_bytes_per_s;
  const double optimizer_s = shard_params * s.colocation.optimizer_bytes_per_param / host_bw;
  // Each GPU reloads its own share: a TP slice of its pipeline stage.
  const double gpu_weights = tp_instance_memory(s.model, s.cluster.pool(s.rollout.pool)->card, s.rollout.tp,
                                                s.rollout.pp, s.rollout.weights, s.rollout.kv_cache, 0.0)
                                 .weight_bytes;
  const double reload_s = gpu_weights / host_bw;
  return PhaseSwitchCosts{optimizer_s, optimizer_s + reload_s};
}

void run_switch(RlContext& context, const GpuGroup& group, double seconds, int step) {
  if (seconds <= 0.0 || group.hosts.empty()) return;
  const double start = sg4::Engine::get_clock();
  group.start_lockstep(seconds)->wait();
  context.record(group, GpuState::switching(), start, sg4::Engine::get_clock(), step);
}

}  // namespace rlsim
