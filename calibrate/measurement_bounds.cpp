// Refusing measurements faster than their card's peak.
#include "calibrate/measurement_bounds.h"

#include <cstdio>
#include <string>

#include "models/input_error.h"

namespace rlsim {
namespace {

/// "file.csv:12" as a location (line 0 when the source names no line).
SourceLocation location_of(const std::string& source) {
  const size_t colon = source.rfind(':');
  if (colon != std::string::npos && colon + 1 < source.size() &&
      source.find_first_not_of("0123456789", colon + 1) == std::string::npos) {
    return {source.substr(0, colon), std::stoi(source.substr(colon + 1)), 0};
  }
  return {source, 0, 0};
}

std::string tflops(double flops_per_s) {
  char text[48];
  std::snprintf(text, sizeof text, "%.4g TFLOP/s", flops_per_s / 1e12);
  return text;
}

}  // namespace

void check_measurements_within_peak(const MeasurementSet& measurements, const HardwareSpec& card) {
  for (const Measurement& m : measurements.points) {
    if (m.op.flops <= 0.0 || m.seconds <= 0.0) continue;
    const std::optional<double> peak = card.peak(m.op.compute);
    if (!peak) continue;  // a precision the card has no peak for is refused where it is priced
    const double achieved = m.op.flops / m.seconds;
    if (achieved > *peak * kPeakMargin) {
      throw InputError(location_of(m.source),
                       "expected at most " + tflops(*peak * kPeakMargin) + " (" + card.name + "'s dense " +
                           std::string(to_string(m.op.compute)) + " peak " + tflops(*peak) +
                           " + 10 %), found " + m.op.name + " timed at " + tflops(achieved) +
                           ": a unit slip or another card's measurement");
    }
  }
}

}  // namespace rlsim
