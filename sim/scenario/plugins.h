// The registries of the engine's plug-ins a scenario names: orchestration policies and routers.
// Declared here, below the engine, so the scenario loader can check a name and read its entry's
// parameters without including the engine: the registry needs `Policy` and `Router` complete only
// where an entry is added or made, in sim/engine/policies/policy.h and sim/engine/routers/router.h
// (RLSIM_REGISTER_POLICY, RLSIM_REGISTER_ROUTER, make_policy, make_router).
#pragma once

#include "models/registry/registry.h"

namespace rlsim {

class Policy;
class Router;

using PolicyRegistry = Registry<Policy>;
/// Routers are made for a number of inference instances.
using RouterRegistry = Registry<Router, int>;

}  // namespace rlsim
