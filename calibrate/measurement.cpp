// MeasurementSet queries.
#include "calibrate/measurement.h"

namespace rlsim {

std::vector<Measurement> MeasurementSet::of_class(OpClass c) const {
  std::vector<Measurement> out;
  for (const auto& point : points) {
    if (point.op.op_class == c) out.push_back(point);
  }
  return out;
}

}  // namespace rlsim
