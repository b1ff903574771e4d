// The colour of each GPU state in every chart (compare.svg, report.html): busy phases cool, waits
// warm, switching amber, down black; "unrecorded" (GPU time no interval covers) light grey.
#pragma once

#include <string>

namespace rlsim {

/// The chart's name for GPU time that no interval covers (not a timeline state).
inline const std::string kUnrecordedState = "unrecorded";

/// Fill colour of the state named `name` (as metrics.json writes it) or of kUnrecordedState.
std::string state_colour(const std::string& name);

}  // namespace rlsim
