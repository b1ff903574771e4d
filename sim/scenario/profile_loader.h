// Reading a hardware profile written by `rlsim calibrate` (calibrate/profile_writer) back into a
// HardwareProfile, with located errors and unknown keys rejected. Also registers the "profile"
// cost model, which loads the scenario's `profile:` file with this reader.
#pragma once

#include <string>

#include "models/cost/profile.h"
#include "sim/scenario/catalog.h"

namespace rlsim {

/// The cost model a scenario's `profile:` file selects unless it names another.
inline constexpr const char* kProfileCostModel = "profile";

/// Reads the profile at `path`; InputError (FILE:LINE:COL) on anything malformed. Each version of a
/// file is parsed once per process (and a forked child inherits what its parent parsed).
HardwareProfile load_profile(const std::string& path);
/// Parses every profile in `folder` ahead (calibrate/profiles before a validation suite forks its
/// cases); files that are no usable profile are skipped here and reported where they are named.
void warm_profiles(const std::string& folder);
/// The same from text in memory (tests); `file` names it in messages.
HardwareProfile load_profile_text(const std::string& text, const std::string& file);
/// InputError at a table's `engine:` unless every `engine_allreduces` table names a preset of
/// `catalog`: a misspelt name would price nothing, and the instances would fall back to NCCL.
void check_profile_engines(const HardwareProfile& profile, const Catalog& catalog);

}  // namespace rlsim
