// Remedy: allow the rollout one more weight version of staleness, under a policy that bounds it.
#include "sim/engine/policies/policy.h"
#include "tools/advice/remedy.h"

namespace rlsim {
namespace {

class StalenessRemedy : public Remedy {
 public:
  std::vector<RemedyTrial> trials(const Scenario& s) const override {
    const auto* entry = PolicyRegistry::instance().find(s.policy.name);
    if (!entry || !declares(entry->params, "max_staleness")) return {};
    const int64_t now = s.policy.params.with_defaults(entry->params).integer("max_staleness");
    return {{"",
             "max_staleness " + std::to_string(now + 1),
             {"policy.max_staleness=" + std::to_string(now + 1)}}};
  }
};

}  // namespace
RLSIM_REGISTER_REMEDY(StalenessRemedy, "staleness", "one more weight version of staleness allowed", 3);
}  // namespace rlsim
