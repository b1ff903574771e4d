// `rlsim run` and `rlsim validate` for AFD scenarios (`kind: afd`): the commands check the kind
// first and hand AFD scenarios to these, with the same outputs and error discipline as RL runs.
#pragma once

#include <string>
#include <vector>

#include "sim/scenario/afd_reader.h"
#include "tools/cli/scenario_args.h"

namespace rlsim {

/// The scenario's load options from the shared arguments (file, --set, --seed).
LoadOptions load_options(const ScenarioArgs& args);
/// Loads and checks an AFD scenario (schema, catalogs, topology) without simulating it.
LoadedAfdScenario load_checked_afd(const ScenarioArgs& args);

/// Simulates, prints the summary and writes metrics.json, trace.json and resolved.yaml into `out`.
int run_afd(const ScenarioArgs& args, const std::string& out, const std::vector<std::string>& logs);
/// Checks and prints a one-line description.
int validate_afd(const ScenarioArgs& args);

}  // namespace rlsim
