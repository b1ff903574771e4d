// Remedy: move one node between the rollout pool and the training pool, both ways, where they are
// separate pools of the same card (moving GPUs between pools of different cards is a purchase).
#include "tools/advice/remedy.h"

namespace rlsim {
namespace {

class RebalanceRemedy : public Remedy {
 public:
  std::vector<RemedyTrial> trials(const Scenario& s) const override {
    const PoolSpec* rollout = s.cluster.pool(s.rollout.pool);
    const PoolSpec* train = s.cluster.pool(s.training.pool);
    if (!rollout || !train || rollout == train || rollout->card.name != train->card.name) return {};
    std::vector<RemedyTrial> out;
    auto moved = [&](const PoolSpec& from, const PoolSpec& to) {
      return RemedyTrial{"",
                         "1 node from " + from.name + " to " + to.name,
                         {"cluster.pools." + from.name + ".nodes=" + std::to_string(from.nodes - 1),
                          "cluster.pools." + to.name + ".nodes=" + std::to_string(to.nodes + 1)}};
    };
    if (train->nodes > 1) out.push_back(moved(*train, *rollout));
    if (rollout->nodes > 1) out.push_back(moved(*rollout, *train));
    return out;
  }
};

}  // namespace
RLSIM_REGISTER_REMEDY(RebalanceRemedy, "rebalance", "one node moved between the rollout and training pools",
                      2);
}  // namespace rlsim
