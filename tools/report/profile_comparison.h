// `rlsim run --compare-profile`: what a calibrated profile changed — the run's per-phase times,
// step time and throughput with the profile against the same run priced by the datasheet roofline
// alone, from the two runs' metrics.json.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace rlsim {

/// A table: figure, with the profile, datasheet only, change in %.
std::string profile_comparison_text(const nlohmann::json& with_profile, const nlohmann::json& datasheet);

}  // namespace rlsim
