// Remedy: twice the tool-running cores per agent host, for workloads whose calls run tools.
#include "tools/advice/remedy.h"

namespace rlsim {
namespace {

class AgentCoresRemedy : public Remedy {
 public:
  std::vector<RemedyTrial> trials(const Scenario& s) const override {
    const double most_turns = s.workload.turns.largest();  // 0: unbounded
    if (most_turns > 0.0 && most_turns <= 1.0) return {};  // single-turn: no tool runs between calls
    const std::string doubled = std::to_string(s.cluster.agents.cores * 2);
    return {{"", "agent cores " + doubled + " per host", {"cluster.agents.cores=" + doubled}}};
  }
};

}  // namespace
RLSIM_REGISTER_REMEDY(AgentCoresRemedy, "agent_cores", "twice the tool-running cores per agent host", 5);
}  // namespace rlsim
