// `least_loaded`: the instance with the fewest calls outstanding.
#include "sim/engine/routers/least_loaded.h"

namespace rlsim {

int LeastLoadedRouter::least_loaded() const {
  // Among available instances; when none is available (every GPU trains), the call waits at the
  // least-loaded one.
  int best = -1;
  for (size_t i = 0; i < outstanding_.size(); ++i) {
    if (!available(static_cast<int>(i))) continue;
    if (best < 0 || outstanding_[i] < outstanding_[static_cast<size_t>(best)]) best = static_cast<int>(i);
  }
  if (best >= 0) return best;
  best = 0;
  for (size_t i = 1; i < outstanding_.size(); ++i) {
    if (outstanding_[i] < outstanding_[static_cast<size_t>(best)]) best = static_cast<int>(i);
  }
  return best;
}

int LeastLoadedRouter::route(const LlmRequest&) {
  const int chosen = least_loaded();
  count(chosen);
  return chosen;
}

void LeastLoadedRouter::on_finish(const LlmRequest& request) {
  --outstanding_[static_cast<size_t>(request.instance)];
}

RLSIM_REGISTER_ROUTER(LeastLoadedRouter, "least_loaded", "the instance with the fewest calls outstanding");
}  // namespace rlsim
