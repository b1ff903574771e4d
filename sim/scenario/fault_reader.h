// The `faults:` section's schema (fault_spec.h), checked against the cluster's pools.
#pragma once

#include "sim/scenario/scenario.h"
#include "sim/scenario/yaml_reader.h"

namespace rlsim {

/// Reads `faults` (an empty reader gives no faults); `cluster` must be read already.
FaultsSpec read_faults(YamlReader& r, const ClusterSpec& cluster);

}  // namespace rlsim
