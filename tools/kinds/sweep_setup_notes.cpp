// The notes on what a sweep's points ran that its table does not show.
#include "tools/kinds/sweep_setup_notes.h"

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

#include "tools/report/pricing_text.h"
#include "tools/sweep/sweep_grid.h"
#include "tools/sweep/sweep_objective.h"

namespace rlsim {
namespace {

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

/// Whether an axis may change what the notes read (engine, batching, card, weights): points that
/// differ only in other axes load once. A path naming a whole block or list counts too.
bool setup_axis(const std::string& path) {
  for (const char* part : {"engine", "scheduler", "gpu", "weights", "pool", "cluster", "catalog", "model"}) {
    if (path.find(part) != std::string::npos) return true;
  }
  return path == "serve" || path == "rollout";
}

/// What one point ran that the notes name.
struct PointSetup {
  bool loaded = false;
  std::string engine, scheduler, own_scheduler, weight_only;
};

/// The line naming the engines that ran a batching other than their own, and the remedy.
std::string pinned_batching_line(const SweepManifest& manifest, const std::string& scheduler_path,
                                 const std::string& pinned, const std::map<std::string, std::string>& own) {
  std::string others;
  for (const auto& [engine, scheduler] : own)
    others += (others.empty() ? "" : ", ") + engine + "'s own is " + scheduler;
  const bool by_set = std::any_of(manifest.sets.begin(), manifest.sets.end(),
                                  [&](const std::string& set) { return starts_with(set, scheduler_path); });
  return "batching: every point ran " + scheduler_path + " " + pinned + " as the " +
         (by_set ? "--set gives" : "scenario sets") + " it, where " + others +
         " (rlsim list engines): to weigh the engines as they ship, " +
         (by_set ? "leave out --set " + scheduler_path : "add --unset " + scheduler_path) + "\n";
}

}  // namespace

std::string sweep_setup_notes(const SweepTable& table, const SweepManifest& manifest,
                              const std::string& block, const PointScenarioOf& scenario_of) {
  const std::string engine_path = block + ".engine", scheduler_path = block + ".scheduler";
  const bool engines_swept = std::any_of(manifest.axes.begin(), manifest.axes.end(),
                                         [&](const SweepAxis& axis) { return axis.path == engine_path; });
  const bool batching_swept =
      std::any_of(manifest.axes.begin(), manifest.axes.end(), [&](const SweepAxis& axis) {
        return starts_with(axis.path, scheduler_path);  // swept on purpose: nothing to say
      });
  const SweepGrid grid(manifest.axes);
  std::map<std::vector<std::string>, PointSetup> loaded;  ///< by the values of the setup axes
  std::string pinned, weight_only;
  std::map<std::string, std::string> own_batching;  ///< engine -> its own scheduler, where it ran another
  std::optional<std::string> weight_only_all;       ///< the note, while every point so far has the same
  for (const auto& [point, cells] : table.rows) {
    if (point >= grid.size()) continue;  // the table was checked against the grid when read
    std::vector<std::string> key;
    const std::vector<std::string> values = grid.values(point);
    for (size_t i = 0; i < values.size(); ++i)
      if (setup_axis(manifest.axes[i].path)) key.push_back(values[i]);
    auto [it, first] = loaded.try_emplace(key);
    PointSetup& setup = it->second;
    if (first) {
      LoadOptions options;
      options.unsets = manifest.unsets;
      options.overrides = manifest.sets;
      options.params = grid.assignments(point);
      options.check_memory = false;  // only the setup is read
      try {
        const Scenario scenario = scenario_of(options);
        const RolloutSpec& rollout = scenario.rollout;
        setup = {true, rollout.engine, rollout.scheduler.name, rollout.engine_overhead.scheduler,
                 weight_only_note(scenario.cluster.pool(rollout.pool)->card, rollout.weights)};
      } catch (const std::exception&) {
        // A point that does not load has no figures either; the table says so.
      }
    }
    if (!setup.loaded) continue;
    if (engines_swept && !batching_swept && setup.scheduler != setup.own_scheduler) {
      pinned = setup.scheduler;
      own_batching[setup.engine] = setup.own_scheduler;
    }
    const std::string& note = setup.weight_only;
    if (!note.empty())
      weight_only +=
          (weight_only.empty() ? "" : "; ") + sweep_point_text(table, manifest, point) + ": " + note;
    if (point == table.rows.begin()->first) weight_only_all = note;
    if (weight_only_all && note != *weight_only_all) weight_only_all.reset();
  }
  std::string out;
  if (!own_batching.empty()) out += pinned_batching_line(manifest, scheduler_path, pinned, own_batching);
  if (weight_only_all && !weight_only_all->empty())
    out += "weights: every point: " + *weight_only_all + "\n";
  else if (!weight_only.empty())
    out += "weights: " + weight_only + "\n";
  return out;
}

}  // namespace rlsim
