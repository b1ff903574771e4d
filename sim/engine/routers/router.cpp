// The router registry.
#include "sim/engine/routers/router.h"

#include <algorithm>
#include <cassert>

namespace rlsim {
namespace {
std::vector<RouterEntry>& registry() {
  static std::vector<RouterEntry> entries;
  return entries;
}
}  // namespace

bool register_router(RouterEntry entry) {
  registry().push_back(std::move(entry));
  return true;
}

void Router::set_available(int instance, bool available) {
  auto it = std::lower_bound(unavailable_.begin(), unavailable_.end(), instance);
  const bool listed = it != unavailable_.end() && *it == instance;
  if (available && listed) unavailable_.erase(it);
  if (!available && !listed) unavailable_.insert(it, instance);
}

bool Router::available(int instance) const {
  return !std::binary_search(unavailable_.begin(), unavailable_.end(), instance);
}

std::vector<RouterEntry> registered_routers() {
  auto entries = registry();
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return entries;
}

std::vector<std::string> router_names() {
  std::vector<std::string> names;
  for (const auto& entry : registered_routers()) names.push_back(entry.name);
  return names;
}

std::unique_ptr<Router> make_router(const std::string& name, int instances) {
  for (const auto& entry : registry()) {
    if (entry.name == name) return entry.make(instances);
  }
  assert(false && "router names are checked by the scenario loader");
  return nullptr;
}

}  // namespace rlsim
