// Shared flags and cost model of the `cost` subcommands.
#include "tools/cli/cost_target.h"

#include <cstdio>
#include <cstdlib>

#include "models/cost/cost_model_registry.h"
#include "models/cost/profiled_cost_model.h"
#include "sim/scenario/profile_loader.h"
#include "tools/cli/catalog_args.h"

namespace rlsim {

void CostTarget::add_to(CLI::App* sub) {
  sub->add_option("--hardware", hardware, "Card from the catalog (rlsim list hardware)")->required();
  sub->add_option("--profile", profile,
                  "Calibrated profile YAML (rlsim calibrate); default: datasheet roofline");
  sub->add_flag("--json", json, "Print JSON: {\"seconds\": ...} and what it was computed from");
}

std::unique_ptr<CostModel> CostTarget::cost_model(const HardwareSpec& card) const {
  if (profile.empty()) return make_cost_model({"roofline"});
  auto model = make_cost_model({kProfileCostModel, {}, flag_location("--profile")}, profile);
  const auto& fitted = static_cast<const ProfiledCostModel&>(*model).profile();
  if (fitted.card != card.name) {
    throw InputError(flag_location("--profile"), "profile '" + profile + "' was fitted for " + fitted.card +
                                                     ", not " + card.name +
                                                     "; its efficiencies are relative to that card");
  }
  return model;
}

std::string readable(double value, Quantity kind) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return format_quantity(std::strtod(text, nullptr), kind);
}

}  // namespace rlsim
