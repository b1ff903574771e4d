// The flags every `rlsim cost` subcommand shares (--hardware, --profile, --json) and the cost model
// they choose: the calibrated profile when given (checked to be the card's), else the datasheet
// roofline. Also the four-significant-digit form of quantities the readable outputs use.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "models/cost/cost_model.h"
#include "models/hardware.h"
#include "models/units.h"

namespace rlsim {

struct CostTarget {
  std::string hardware;
  std::string profile;
  bool json = false;

  void add_to(CLI::App* sub);
  /// The profile's cost model (its card must be `card`: InputError at --profile otherwise), or the
  /// datasheet roofline without --profile.
  std::unique_ptr<CostModel> cost_model(const HardwareSpec& card) const;
};

/// A quantity to four significant digits, for the readable output.
std::string readable(double value, Quantity kind);

}  // namespace rlsim
