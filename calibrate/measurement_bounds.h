// Physical plausibility of imported measurements: no timed op may compute faster than its card's
// dense peak for the op's precision, by more than a margin for clock boost and rounding in the
// published tables. A row past it is a unit slip or a wrong card, not a fast kernel, and is refused
// with its FILE:LINE and the bound.
#pragma once

#include "calibrate/measurement.h"
#include "models/hardware.h"

namespace rlsim {

/// How far above the datasheet's dense peak a measurement may compute: boost clocks above the
/// datasheet's (H100 SXM's 1,980 MHz against the 1,830 MHz its peak assumes, +8 %) and rounding.
constexpr double kPeakMargin = 1.10;

/// InputError at the first point of `measurements` whose FLOPs per second exceed `card`'s dense
/// peak for its precision × kPeakMargin.
void check_measurements_within_peak(const MeasurementSet& measurements, const HardwareSpec& card);

}  // namespace rlsim
