// The trials of every registered remedy (remedy.h).
#include "tools/advice/remedy.h"

namespace rlsim {

std::vector<RemedyTrial> remedy_trials(const Scenario& scenario) {
  std::vector<RemedyTrial> all;
  for (const auto& entry : RemedyRegistry::instance().entries()) {
    for (RemedyTrial& trial : entry.make({})->trials(scenario)) {
      trial.remedy = entry.name;
      all.push_back(std::move(trial));
    }
  }
  return all;
}

}  // namespace rlsim
