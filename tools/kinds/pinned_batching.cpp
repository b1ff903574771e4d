// The finding of an engine sweep whose scenario pins the batching.
#include "tools/kinds/pinned_batching.h"

#include <algorithm>

namespace rlsim {
namespace {

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

}  // namespace

std::string pinned_batching_note(const SweepManifest& manifest, const std::string& block,
                                 const RolloutOf& rollout_of) {
  const std::string engine_path = block + ".engine", scheduler_path = block + ".scheduler";
  const SweepAxis* engines = nullptr;
  for (const SweepAxis& axis : manifest.axes) {
    if (axis.path == engine_path) engines = &axis;
    if (starts_with(axis.path, scheduler_path)) return "";  // the batching is swept on purpose
  }
  if (!engines) return "";
  std::string pinned, others;
  for (const std::string& engine : engines->values) {
    LoadOptions options;
    options.unsets = manifest.unsets;
    options.overrides = manifest.sets;
    options.params = {engine_path + "=" + engine};
    options.check_memory = false;  // only the batching is read
    try {
      const RolloutSpec rollout = rollout_of(options);
      if (rollout.scheduler.name == rollout.engine_overhead.scheduler) continue;
      pinned = rollout.scheduler.name;
      others += (others.empty() ? "" : ", ") + engine + "'s own is " + rollout.engine_overhead.scheduler;
    } catch (const std::exception&) {
      // A point that does not load has no figures either; the table says so.
    }
  }
  if (others.empty()) return "";
  const bool by_set = std::any_of(manifest.sets.begin(), manifest.sets.end(),
                                  [&](const std::string& set) { return starts_with(set, scheduler_path); });
  return "batching: every point ran " + scheduler_path + " " + pinned + " as the " +
         (by_set ? "--set gives" : "scenario sets") + " it, where " + others +
         " (rlsim list engines): to weigh the engines as they ship, " +
         (by_set ? "leave out --set " + scheduler_path : "add --unset " + scheduler_path) + "\n";
}

}  // namespace rlsim
