// Turning a scenario file (plus `--set` overrides and catalogs) into a checked Scenario, and the
// fully resolved YAML (every default filled in, units canonical) that each run writes beside its
// outputs. All input problems come back as InputError with FILE:LINE:COL.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/scenario/catalog.h"
#include "sim/scenario/scenario.h"

namespace rlsim {

struct LoadOptions {
  std::vector<std::string> overrides;  ///< "a.b=value" from --set
  std::optional<uint64_t> seed;        ///< --seed, wins over the file
  std::string data_dir;                ///< where scenarios/catalog lives; empty = default_data_dir()
};

struct LoadedScenario {
  Scenario scenario;
  Catalog catalog;            ///< built-in rows plus the scenario's own catalog files
  std::string resolved_yaml;  ///< text of resolved.yaml
};

LoadedScenario load_scenario(const std::string& path, const LoadOptions& options = {});

/// Valid policy names; the engine's registry fills this (the loader checks `policy.name` against it).
std::vector<std::string> known_policy_names();

}  // namespace rlsim
