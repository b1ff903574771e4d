// CostModel: the extension point that predicts how long one op takes on one card.
// Contract: `seconds` is pure (same inputs, same answer), never negative, and includes the fixed
// launch overhead of the op. Shapes are per GPU (parallel splits applied by the caller).
// Implementations live in models/cost/ and register by name; an unknown name fails listing the
// valid ones. Collective communication is not an op: see models/timing/collectives.h.
#pragma once

#include <string>

#include "models/hardware.h"
#include "models/ops/op.h"

namespace rlsim {

class CostModel {
 public:
  virtual ~CostModel() = default;
  /// Predicted wall time of `op` on one `card`, in seconds.
  virtual double seconds(const Op& op, const HardwareSpec& card) const = 0;
  /// Registered name, e.g. "roofline" or "profile".
  virtual std::string name() const = 0;
};

}  // namespace rlsim
