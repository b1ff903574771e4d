// The policy registry.
#include "sim/engine/policies/policy.h"

#include <algorithm>
#include <cassert>

#include "sim/scenario/scenario_loader.h"

namespace rlsim {
namespace {
std::vector<PolicyEntry>& registry() {
  static std::vector<PolicyEntry> entries;
  return entries;
}
}  // namespace

bool register_policy(PolicyEntry entry) {
  registry().push_back(std::move(entry));
  return true;
}

std::vector<PolicyEntry> registered_policies() {
  auto entries = registry();
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return entries;
}

std::unique_ptr<Policy> make_policy(const std::string& name) {
  for (const auto& entry : registry()) {
    if (entry.name == name) return entry.make();
  }
  assert(false && "policy names are checked by the scenario loader");
  return nullptr;
}

std::vector<std::string> known_policy_names() {
  std::vector<std::string> names;
  for (const auto& entry : registered_policies()) names.push_back(entry.name);
  return names;
}

}  // namespace rlsim
