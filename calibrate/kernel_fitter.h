// Fitting op-time models to measurements: the shape-aware tiled roofline the profile stores
// (models/cost/profile.h, KernelFit), and two references it is judged against — a plain roofline with
// one fitted efficiency and one fixed overhead, and the uncalibrated datasheet roofline.
#pragma once

#include <vector>

#include "calibrate/measurement.h"
#include "models/cost/profile.h"
#include "models/hardware.h"

namespace rlsim {

/// Fits the KernelFit parameters that matter for the points' op class (all five for GEMMs; overhead
/// and efficiencies for attention; overhead and memory efficiency for memory-bound ops) by
/// minimising the mean relative error. Deterministic. `points` must be non-empty and of one class.
KernelFit fit_kernel(const std::vector<Measurement>& points, const HardwareSpec& card, int sm_count,
                     double l2_bytes);

/// t = overhead + max(flops / peak, bytes / bandwidth) / efficiency.
struct BaselineRoofline {
  double overhead_s = 0.0;
  double efficiency = 1.0;
};
/// Least-squares fit of the baseline in relative error (closed form).
BaselineRoofline fit_baseline_roofline(const std::vector<Measurement>& points, const HardwareSpec& card);
double baseline_roofline_seconds(const BaselineRoofline& fit, const Op& op, const HardwareSpec& card);
/// max(flops / peak, bytes / bandwidth) at datasheet figures: what an uncalibrated simulator says.
double datasheet_roofline_seconds(const Op& op, const HardwareSpec& card);

}  // namespace rlsim
