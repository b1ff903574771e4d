// `least_loaded`: the instance with the fewest calls outstanding.
#include "sim/engine/routers/least_loaded.h"

namespace rlsim {

LeastLoadedRouter::LeastLoadedRouter(int instances) : outstanding_(static_cast<size_t>(instances), 0) {
  for (int i = 0; i < instances; ++i) {
    all_.emplace_hint(all_.end(), 0, i);
    available_.emplace_hint(available_.end(), 0, i);
  }
}

int LeastLoadedRouter::least_loaded() const {
  // Among available instances; when none is available (every GPU trains), the call waits at the
  // least-loaded one.
  return available_.empty() ? all_.begin()->second : available_.begin()->second;
}

void LeastLoadedRouter::add(int instance, int calls) {
  int& outstanding = outstanding_[static_cast<size_t>(instance)];
  all_.erase({outstanding, instance});
  const bool taking_calls = available_.erase({outstanding, instance}) > 0;
  outstanding += calls;
  all_.emplace(outstanding, instance);
  if (taking_calls) available_.emplace(outstanding, instance);
}

void LeastLoadedRouter::on_availability(int instance, bool available) {
  const Load load{outstanding_[static_cast<size_t>(instance)], instance};
  if (available) {
    available_.insert(load);
  } else {
    available_.erase(load);
  }
}

int LeastLoadedRouter::route(const LlmRequest&) {
  const int chosen = least_loaded();
  count(chosen);
  return chosen;
}

void LeastLoadedRouter::on_finish(const LlmRequest& request) { add(request.instance, -1); }

RLSIM_REGISTER_ROUTER(LeastLoadedRouter, "least_loaded", "the instance with the fewest calls outstanding");
}  // namespace rlsim
