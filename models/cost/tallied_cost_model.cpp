// Counting what answered each priced op (tallied_cost_model.h).
#include "models/cost/tallied_cost_model.h"

#include "models/cost/profiled_cost_model.h"

namespace rlsim {

TalliedCostModel::TalliedCostModel(const CostModel& inner)
    : inner_(inner), profiled_(dynamic_cast<const ProfiledCostModel*>(&inner)) {}

double TalliedCostModel::seconds(const Op& op, const HardwareSpec& card) const {
  auto& by_answer = tally_[std::string(to_string(op.op_class))];
  // The profile's own answer when it covers the op (as ProfiledCostModel::seconds), priced once.
  if (profiled_) {
    if (const auto price = profiled_->price(op, card)) {
      ++by_answer[std::string(enum_name(price->source))];
      return price->seconds;
    }
  }
  ++by_answer["datasheet"];
  return inner_.seconds(op, card);
}

}  // namespace rlsim
