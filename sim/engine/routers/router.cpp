// Which instances take calls: the bookkeeping every router shares.
#include "sim/engine/routers/router.h"

#include <algorithm>

namespace rlsim {

void Router::set_available(int instance, bool available) {
  auto it = std::lower_bound(unavailable_.begin(), unavailable_.end(), instance);
  const bool listed = it != unavailable_.end() && *it == instance;
  if (available && listed) unavailable_.erase(it);
  if (!available && !listed) unavailable_.insert(it, instance);
}

bool Router::available(int instance) const {
  return !std::binary_search(unavailable_.begin(), unavailable_.end(), instance);
}

}  // namespace rlsim
