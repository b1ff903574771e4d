// make_cost_model: a registry lookup with the scenario's location for errors.
#include "models/cost/cost_model_registry.h"

namespace rlsim {

std::unique_ptr<CostModel> make_cost_model(const PluginSpec& choice, const std::string& profile) {
  const SourceLocation where = choice.where.file.empty() ? SourceLocation{"cost_model", 0, 0} : choice.where;
  return CostModelRegistry::instance().make(choice.name, choice.params, where, "cost model", profile, where);
}

}  // namespace rlsim
