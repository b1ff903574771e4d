// `least_loaded`: the instance with the fewest calls outstanding.
#include "sim/engine/routers/least_loaded.h"

namespace rlsim {

int LeastLoadedRouter::least_loaded() const {
  size_t best = 0;
  for (size_t i = 1; i < outstanding_.size(); ++i) {
    if (outstanding_[i] < outstanding_[best]) best = i;
  }
  return static_cast<int>(best);
}

int LeastLoadedRouter::route(const LlmRequest&) {
  const int chosen = least_loaded();
  count(chosen);
  return chosen;
}

void LeastLoadedRouter::on_finish(const LlmRequest& request) { --outstanding_[static_cast<size_t>(request.instance)]; }

RLSIM_REGISTER_ROUTER(LeastLoadedRouter, "least_loaded", "the instance with the fewest calls outstanding");
}  // namespace rlsim
