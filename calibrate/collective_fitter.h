// Fitting alpha-beta models (t = alpha + bytes / bandwidth) to collective timings, one per
// (collective, group size, GPUs per node), with the error on held-out message sizes.
#pragma once

#include <vector>

#include "calibrate/measurement.h"
#include "models/cost/profile.h"

namespace rlsim {

/// Least squares in relative error (closed form). `points` non-empty, one group.
CollectiveFit fit_alpha_beta(const std::vector<CollectiveMeasurement>& points);

/// One fit per group in `points`, sorted by (collective, gpus, gpus_per_node). Every fifth message
/// size (by size) is held out to score the fit; the parameters are then refitted on all sizes.
std::vector<CollectiveFit> fit_collectives(const std::vector<CollectiveMeasurement>& points);

}  // namespace rlsim
