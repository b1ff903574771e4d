// Writes a HardwareProfile as YAML text (calibrate may not use yaml-cpp; sim/scenario/profile_loader
// reads it back). The text is a pure function of the profile, so the same measurements always give
// the same bytes.
#pragma once

#include <string>

#include "models/cost/profile.h"

namespace rlsim {

std::string profile_to_yaml(const HardwareProfile& profile);

}  // namespace rlsim
