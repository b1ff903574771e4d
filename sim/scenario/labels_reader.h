// The `labels:` section's schema (see labels_spec.h): node ranges of pools with capability tags,
// interruptibility and the preemption mode, checked against the cluster, rollout and training.
#pragma once

#include "sim/scenario/scenario.h"
#include "sim/scenario/yaml_reader.h"

namespace rlsim {

/// Reads `labels` (an empty reader gives the defaults); `s` must have cluster, rollout and
/// training read already.
LabelsSpec read_labels(YamlReader& r, const Scenario& s);

}  // namespace rlsim
