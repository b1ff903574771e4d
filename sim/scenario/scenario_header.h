// What every scenario kind's loader reads first and writes last: the file's `name` (by default its
// stem) and `seed` (`--seed` wins, and is what resolved.yaml records), and the text of
// resolved.yaml from everything the loader read.
#pragma once

#include <cstdint>
#include <string>

#include "sim/scenario/scenario_loader.h"
#include "sim/scenario/yaml_reader.h"

namespace rlsim {

/// Fields every kind reads alike, declared once.
inline const Field kKindField{
    "kind",
    "what the file describes: an RL run (rl), one AFD deployment (afd) or a serving "
    "deployment (serve)"};
inline const Field kModelField{"model", "the model (rlsim list models)"};
inline const Field kClusterField{"cluster",
                                 "the GPU pools, agent hosts, data plane and the links between them"};

/// Reads `name` and `seed` (`default_seed` when absent) from the top of the scenario at `path`.
void read_name_and_seed(YamlReader& root, const std::string& path, const LoadOptions& options,
                        uint64_t default_seed, std::string& name, uint64_t& seed);

/// The file `named` by `key` of `r` (a request trace, recorded trajectories), relative to the
/// scenario at `scenario_path`: InputError at `key` when nothing is there. resolved.yaml records its
/// absolute path, so that it re-runs from wherever it is written. `what` names the file in errors.
std::string input_file_beside(YamlReader& r, const std::string& key, const std::string& named,
                              const std::string& scenario_path, const std::string& what);

/// The first line of every resolved.yaml (what tells a run's folder from any other).
constexpr char kResolvedYamlHeader[] =
    "# Resolved scenario written by rlsim: every default filled in, units canonical.\n";
/// resolved.yaml's text: kResolvedYamlHeader, then `resolved`.
std::string resolved_yaml_text(const YAML::Node& resolved);

}  // namespace rlsim
