// MeasurementSet queries and merging.
#include "calibrate/measurement.h"

namespace rlsim {

std::vector<Measurement> MeasurementSet::of_class(OpClass c) const {
  std::vector<Measurement> out;
  for (const auto& point : points) {
    if (point.op.op_class == c) out.push_back(point);
  }
  return out;
}

void MeasurementSet::merge(MeasurementSet other) {
  if (device.empty()) device = other.device;
  if (date.empty()) date = other.date;
  if (sm_count == 0) sm_count = other.sm_count;
  if (l2_bytes == 0.0) l2_bytes = other.l2_bytes;
  files.insert(files.end(), other.files.begin(), other.files.end());
  points_per_file.insert(points_per_file.end(), other.points_per_file.begin(), other.points_per_file.end());
  for (auto& p : other.points) points.push_back(std::move(p));
  for (auto& c : other.collectives) collectives.push_back(std::move(c));
  for (auto& a : other.engine_allreduces) engine_allreduces.push_back(std::move(a));
  for (auto& e : other.engine_overheads) engine_overheads.push_back(std::move(e));
}

}  // namespace rlsim
