// The registries of the engine's plug-ins a scenario names: orchestration policies, routers and
// replica schedulers. Declared here, below the engine, so the scenario loader can check a name and
// read its entry's parameters without including the engine: the registry needs `Policy`, `Router`
// and `ReplicaScheduler` complete only where an entry is added or made, in
// sim/engine/policies/policy.h, sim/engine/routers/router.h and
// sim/engine/scheduling/replica_scheduler.h (RLSIM_REGISTER_*, make_*).
#pragma once

#include "models/registry/registry.h"

namespace rlsim {

class Policy;
class Router;
class ReplicaScheduler;
struct SchedulerLimits;

using PolicyRegistry = Registry<Policy>;
/// Routers are made for a number of inference instances.
using RouterRegistry = Registry<Router, int>;
/// Replica schedulers are made for one replica's limits.
using ReplicaSchedulerRegistry = Registry<ReplicaScheduler, const SchedulerLimits&>;

}  // namespace rlsim
