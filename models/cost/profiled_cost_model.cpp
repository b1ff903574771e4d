// The calibrated cost model (see profiled_cost_model.h).
#include "models/cost/profiled_cost_model.h"

#include <cassert>

namespace rlsim {

ProfiledCostModel::ProfiledCostModel(HardwareProfile profile, std::unique_ptr<CostModel> fallback)
    : profile_(std::move(profile)), fallback_(std::move(fallback)) {
  assert(fallback_ && "a profiled cost model needs a fallback for uncalibrated op classes");
}

bool ProfiledCostModel::covers(const Op& op) const {
  return profile_.find(op.op_class, op.compute) != nullptr;
}

double ProfiledCostModel::seconds(const Op& op, const HardwareSpec& card) const {
  // A profile describes one card: ops on other cards (a heterogeneous cluster) keep the fallback.
  if (card.name != profile_.card) return fallback_->seconds(op, card);
  if (auto t = profile_seconds(profile_, op, card)) return *t;
  return fallback_->seconds(op, card);
}

}  // namespace rlsim
