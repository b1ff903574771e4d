// What every scenario kind's loader reads first and writes last: the file's `name` (by default its
// stem) and `seed` (`--seed` wins, and is what resolved.yaml records), and the text of
// resolved.yaml from everything the loader read.
#pragma once

#include <cstdint>
#include <string>

#include "sim/scenario/scenario_loader.h"
#include "sim/scenario/yaml_reader.h"

namespace rlsim {

/// Reads `name` and `seed` (`default_seed` when absent) from the top of the scenario at `path`.
void read_name_and_seed(YamlReader& root, const std::string& path, const LoadOptions& options,
                        uint64_t default_seed, std::string& name, uint64_t& seed);

/// resolved.yaml's text: a header line, then `resolved`.
std::string resolved_yaml_text(const YAML::Node& resolved);

}  // namespace rlsim
