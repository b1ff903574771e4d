// Loading an AFD scenario (`kind: afd`): the schema of its `afd:`, `model_edits:`, `cost_model:` and
// `sweep:` sections (the cluster comes from cluster_reader), with the same discipline as the RL
// loader — FILE:LINE:COL errors, unknown keys rejected with a did-you-mean, `--set` overrides, and
// the fully resolved YAML each run writes beside its outputs.
#pragma once

#include <string>

#include "sim/scenario/afd_spec.h"
#include "sim/scenario/catalog.h"
#include "sim/scenario/scenario_loader.h"

namespace rlsim {

struct LoadedAfdScenario {
  AfdScenario scenario;
  Catalog catalog;
  std::string resolved_yaml;  ///< text of resolved.yaml
};

LoadedAfdScenario load_afd_scenario(const std::string& path, const LoadOptions& options = {});

}  // namespace rlsim
