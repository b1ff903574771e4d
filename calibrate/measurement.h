// Measurement: one timed op on a real card, as importers produce and the fitter consumes it.
#pragma once

#include <string>
#include <vector>

#include "models/op.h"

namespace rlsim {

struct Measurement {
  Op op;                  ///< the op measured: class, shape, dtype, FLOPs and bytes
  double seconds = 0.0;   ///< median measured time
  std::string source;     ///< file (and row) it came from, for error reports and provenance
};

struct MeasurementSet {
  std::string device;                  ///< e.g. "NVIDIA H100 80GB HBM3"
  std::vector<std::string> files;      ///< inputs, in the order read
  std::vector<Measurement> points;

  /// Points of one op class.
  std::vector<Measurement> of_class(OpClass c) const;
};

}  // namespace rlsim
