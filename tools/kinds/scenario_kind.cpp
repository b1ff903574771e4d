// Finding a scenario kind by name or by what a scenario file says it is.
#include "tools/kinds/scenario_kind.h"

namespace rlsim {

std::unique_ptr<ScenarioKind> make_scenario_kind(const std::string& name, const SourceLocation& where) {
  return ScenarioKindRegistry::instance().at(name, where, "scenario kind").make(ParamValues{});
}

std::unique_ptr<ScenarioKind> scenario_kind_of(const std::string& file, const LoadOptions& options) {
  const std::string name = scenario_kind(file, options, ScenarioKindRegistry::instance().names());
  return make_scenario_kind(name, {file, 0, 0});
}

}  // namespace rlsim
