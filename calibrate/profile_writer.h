// Writes a HardwareProfile as YAML text (calibrate may not use yaml-cpp; sim/scenario/profile_loader
// reads it back). The text is a pure function of the profile, so the same measurements always give
// the same bytes.
#pragma once

#include <optional>
#include <string>

#include "calibrate/engine_gap_fitter.h"
#include "models/cost/profile.h"

namespace rlsim {

/// `engine`, when measured, is written as the profile's `engine:` block (launch_gap_per_layer_s,
/// graph_gap_per_layer_s; the other engine terms are not measured by the suite).
std::string profile_to_yaml(const HardwareProfile& profile,
                            const std::optional<EngineGaps>& engine = std::nullopt);

}  // namespace rlsim
