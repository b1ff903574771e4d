// The command registry: in the library rather than beside main(), so that everything linking
// rlsim_cli whole-archive (the executable, the CLI tests) gets the commands' registrations resolved.
#include "tools/cli/command.h"

#include <algorithm>

namespace rlsim {
namespace {
std::vector<CommandEntry>& registry() {
  static std::vector<CommandEntry> entries;
  return entries;
}
}  // namespace

bool register_command(CommandEntry entry) {
  registry().push_back(std::move(entry));
  return true;
}

std::vector<CommandEntry> registered_commands() {
  auto entries = registry();
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.order < b.order; });
  return entries;
}

}  // namespace rlsim
