// Measured tables: every measured GEMM shape's times by token count, as the profile keeps them
// (models/cost/measured_shape.h), and their in-shape held-out error — every other token count of each
// shape withheld and priced by interpolation between the rest.
#pragma once

#include <functional>
#include <vector>

#include "calibrate/fit_error.h"
#include "calibrate/measurement.h"
#include "models/cost/measured_shape.h"

namespace rlsim {

/// One table per GEMM or grouped-GEMM shape in `points` (all groups pooled; the median of the
/// measurements at each token count), ordered by shape. Other op classes are skipped.
std::vector<MeasuredShape> measured_shape_tables(const std::vector<Measurement>& points);

/// In-shape held-out error: for each shape, a table of its even-indexed token counts prices the
/// measurements at the odd-indexed ones inside that range (measured_shape_seconds, as the simulator
/// prices them). `keep` (optional) selects which points count.
RelativeErrors in_shape_held_out_errors(const std::vector<Measurement>& points,
                                        const std::function<bool(const Measurement&)>& keep = nullptr);

}  // namespace rlsim
