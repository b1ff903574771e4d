// `rlsim calibrate --format serving`: fits an engine's time beyond kernels (CPU work, launch and
// graph gaps) to measured times of iterations or of whole static batches
// (calibrate/serving_importer.h) and returns the profile to write: the base profile given with
// --profile (its kernel fits and all-reduce then predict the kernels the engine terms sit on; else
// the datasheet roofline) with an `engine:` block and its held-out error.
#pragma once

#include <string>
#include <vector>

#include "calibrate/engine_fitter.h"
#include "models/cost/profile.h"
#include "sim/scenario/catalog.h"

namespace rlsim {

struct ServingCalibration {
  HardwareProfile profile;  ///< to write
  EngineFit fit;
  int samples = 0;
};

/// Fits `engine`'s terms (a catalog preset: its CUDA-graph and overlap settings are kept) for
/// `card` from the serving CSVs `inputs`. InputError at a row naming another card or an unknown
/// model.
ServingCalibration calibrate_serving(const Catalog& catalog, const HardwareSpec& card,
                                     const std::vector<std::string>& inputs, const std::string& base_profile,
                                     const std::string& engine);

}  // namespace rlsim
