// Facts about known cards that the fitter needs but the hardware catalog does not carry: SM count
// (wave quantisation) and L2 size (operand re-reads). Our own measurements JSON records both from
// the device; imported files (vidur CSVs) do not, so the fitter looks the card up here.
#pragma once

#include <optional>
#include <string>

namespace rlsim {

struct DeviceFacts {
  int sm_count = 0;
  double l2_bytes = 0.0;
  std::string source;  ///< where the figures come from
};

/// Facts for a catalog card name ("H100", "A100", ...), or nullopt when unknown.
std::optional<DeviceFacts> known_device_facts(const std::string& card);

}  // namespace rlsim
