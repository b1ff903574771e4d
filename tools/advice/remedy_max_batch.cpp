// Remedy: twice the sequences per rollout instance (rollout.max_batch), up to 4,096.
#include "tools/advice/remedy.h"

namespace rlsim {
namespace {

class MaxBatchRemedy : public Remedy {
 public:
  std::vector<RemedyTrial> trials(const Scenario& s) const override {
    if (s.rollout.afd || s.rollout.max_batch * 2 > 4096) return {};
    const std::string doubled = std::to_string(s.rollout.max_batch * 2);
    return {{"", "rollout max_batch " + doubled, {"rollout.max_batch=" + doubled}}};
  }
};

}  // namespace
RLSIM_REGISTER_REMEDY(MaxBatchRemedy, "max_batch", "twice the sequences per rollout instance", 4);
}  // namespace rlsim
