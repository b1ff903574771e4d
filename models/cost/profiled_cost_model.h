// ProfiledCostModel: the cost model of a calibrated card. Ops whose class the profile covers take
// the profile's tiled-roofline time (models/cost/profile.h) on the profile's own card; every other op,
// and every op on another card, goes to a fallback model
// (normally the datasheet roofline), so a profile measured only on GEMMs still answers for
// attention. Registered as "profile" by sim/scenario/profile_loader (which reads the YAML).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "models/cost/cost_model.h"
#include "models/cost/profile.h"

namespace rlsim {

class ProfiledCostModel : public CostModel {
 public:
  /// `fallback` must not be null.
  ProfiledCostModel(HardwareProfile profile, std::unique_ptr<CostModel> fallback);

  double seconds(const Op& op, const HardwareSpec& card) const override;
  std::string name() const override { return "profile"; }

  /// True when the profile (not the fallback) answers for `op`.
  bool covers(const Op& op) const;
  /// The profile's time for `op` on `card` and where it comes from (measured table, interpolated,
  /// fitted model); nullopt when the fallback answers.
  std::optional<ProfilePrice> price(const Op& op, const HardwareSpec& card) const;
  const HardwareProfile& profile() const { return profile_; }

 private:
  HardwareProfile profile_;
  std::unique_ptr<CostModel> fallback_;
};

}  // namespace rlsim
