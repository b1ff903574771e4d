// Which instances take calls: the bookkeeping every router shares.
#include "sim/engine/routers/router.h"

#include <algorithm>

namespace rlsim {

void Router::set_available(int instance, bool available) {
  auto it = std::lower_bound(unavailable_.begin(), unavailable_.end(), instance);
  const bool listed = it != unavailable_.end() && *it == instance;
  if (available == listed) {
    if (available) {
      unavailable_.erase(it);
    } else {
      unavailable_.insert(it, instance);
    }
    on_availability(instance, available);
  }
}

bool Router::available(int instance) const {
  return !std::binary_search(unavailable_.begin(), unavailable_.end(), instance);
}

}  // namespace rlsim
