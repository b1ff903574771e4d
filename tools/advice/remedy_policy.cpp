// Remedy: run the same workload under another orchestration policy (each registered policy the
// scenario does not already use; one that cannot run it fails its trial and is not advised).
#include "sim/engine/policies/policy.h"
#include "tools/advice/remedy.h"

namespace rlsim {
namespace {

class PolicyRemedy : public Remedy {
 public:
  std::vector<RemedyTrial> trials(const Scenario& s) const override {
    std::vector<RemedyTrial> out;
    for (const auto& entry : PolicyRegistry::instance().entries()) {
      if (entry.name == s.policy.name) continue;
      out.push_back({"", "policy " + entry.name, {"policy.name=" + entry.name}});
    }
    return out;
  }
};

}  // namespace
RLSIM_REGISTER_REMEDY(PolicyRemedy, "policy", "another orchestration policy for the same workload", 1);
}  // namespace rlsim
