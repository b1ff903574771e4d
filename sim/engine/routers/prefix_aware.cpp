// `prefix_aware`: later turns of a trajectory go back to the instance that served its earlier
// turns, where its KV prefix may still be cached; first turns go to the least-loaded instance.
#include <unordered_map>

#include "sim/engine/routers/least_loaded.h"

namespace rlsim {
namespace {

class PrefixAwareRouter : public LeastLoadedRouter {
 public:
  using LeastLoadedRouter::LeastLoadedRouter;
  int route(const LlmRequest& request) override {
    auto it = home_.find(request.trajectory);
    const int chosen = it != home_.end() && available(it->second) ? it->second : least_loaded();
    home_[request.trajectory] = chosen;
    count(chosen);
    return chosen;
  }

 private:
  std::unordered_map<int, int> home_;
};

}  // namespace
RLSIM_REGISTER_ROUTER(
    PrefixAwareRouter, "prefix_aware",
    "a trajectory's later turns to the instance holding its KV prefix; first turns least-loaded");
}  // namespace rlsim
