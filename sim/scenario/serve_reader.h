// Loading a serving scenario (`kind: serve`): model, cluster and cost model as in an RL scenario,
// the deployment under `serve:` read by the RL loader's own read_rollout (so every instance field,
// router, scheduler or engine preset a rollout takes works here too), and the request stream under
// `workload:` (closed loop, Poisson, or a trace CSV). Same discipline as the other loaders: errors
// at FILE:LINE:COL, unknown keys rejected, `--set` overrides, resolved.yaml text.
#pragma once

#include <string>

#include "sim/scenario/catalog.h"
#include "sim/scenario/scenario_loader.h"
#include "sim/scenario/serve_spec.h"

namespace rlsim {

struct LoadedServeScenario {
  ServeScenario scenario;
  Catalog catalog;
  std::string resolved_yaml;  ///< text of resolved.yaml
};

LoadedServeScenario load_serve_scenario(const std::string& path, const LoadOptions& options = {});

}  // namespace rlsim
