// TalliedCostModel: answers exactly as the cost model it wraps and counts, per op class, what
// answered each op it priced — a calibrated profile's measured table, an interpolation in it, the
// profile's fitted model (PriceSource, models/cost/profile.h), or the datasheet roofline where no
// profile covers the op (another card, an op class the profile did not measure). The run's summary
// and metrics.json show the count, so a profile that priced nothing cannot pass unnoticed.
#pragma once

#include <map>
#include <string>

#include "models/cost/cost_model.h"

namespace rlsim {

class ProfiledCostModel;

/// op class ("gemm") -> what answered ("measured", "interpolated", "fitted", "datasheet") -> ops.
using PriceTally = std::map<std::string, std::map<std::string, long>>;

class TalliedCostModel : public CostModel {
 public:
  /// `inner` must outlive this model.
  explicit TalliedCostModel(const CostModel& inner);

  double seconds(const Op& op, const HardwareSpec& card) const override;
  std::string name() const override { return inner_.name(); }

  const PriceTally& tally() const { return tally_; }

 private:
  const CostModel& inner_;
  const ProfiledCostModel* profiled_;  ///< `inner` when it is a profile, else null
  mutable PriceTally tally_;
};

}  // namespace rlsim
