// The calibrated cost model (see profiled_cost_model.h).
#include "models/cost/profiled_cost_model.h"

#include <cassert>

namespace rlsim {

ProfiledCostModel::ProfiledCostModel(HardwareProfile profile, std::unique_ptr<CostModel> fallback)
    : profile_(std::move(profile)), fallback_(std::move(fallback)) {
  assert(fallback_ && "a profiled cost model needs a fallback for uncalibrated op classes");
}

bool ProfiledCostModel::covers(const Op& op) const {
  if (profile_.find(op.op_class, op.compute)) return true;
  const MeasuredShape* table = profile_.find_measured(op);
  return table && measured_shape_seconds(*table, op.gemm.m).has_value();
}

std::optional<ProfilePrice> ProfiledCostModel::price(const Op& op, const HardwareSpec& card) const {
  if (card.name != profile_.card) return std::nullopt;
  return profile_price(profile_, op, card);
}

double ProfiledCostModel::seconds(const Op& op, const HardwareSpec& card) const {
  // A profile describes one card: ops on other cards (a heterogeneous cluster) keep the fallback.
  if (auto p = price(op, card)) return p->seconds;
  return fallback_->seconds(op, card);
}

}  // namespace rlsim
