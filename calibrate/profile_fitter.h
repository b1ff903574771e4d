// ProfileFitter: measurements of one card → a HardwareProfile with its error. Each (op class,
// precision) present gets a tiled-roofline fit scored on held-out points — leave one model out when
// the points come from several models (the honest test of "does it work for a model it has not
// seen"), every fifth point otherwise — next to the plain-roofline and datasheet references.
// Collectives get alpha-beta fits.
#pragma once

#include <string>

#include "calibrate/measurement.h"
#include "models/cost/profile.h"
#include "models/hardware.h"

namespace rlsim {

struct CalibrationSettings {
  HardwareSpec card;      ///< the catalog card the efficiencies are relative to
  int sm_count = 0;       ///< > 0
  double l2_bytes = 0.0;  ///< >= 0 (0 disables the operand re-read term)
  std::string date;       ///< written as given; "unknown" when empty
  std::string device;     ///< device name; the card's description when empty
};

HardwareProfile fit_profile(const MeasurementSet& measurements, const CalibrationSettings& settings);

}  // namespace rlsim
