// The notes on what a sweep's points ran that its table does not show.
#include "tools/kinds/sweep_setup_notes.h"

#include <algorithm>
#include <map>
#include <optional>

#include "tools/report/pricing_text.h"
#include "tools/sweep/sweep_grid.h"
#include "tools/sweep/sweep_objective.h"

namespace rlsim {
namespace {

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

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
  std::string pinned, weight_only;
  std::map<std::string, std::string> own_batching;  ///< engine -> its own scheduler, where it ran another
  std::optional<std::string> weight_only_all;       ///< the note, while every point so far has the same
  for (const auto& [point, cells] : table.rows) {
    if (point >= grid.size()) continue;  // the table was checked against the grid when read
    LoadOptions options;
    options.unsets = manifest.unsets;
    options.overrides = manifest.sets;
    options.params = grid.assignments(point);
    options.check_memory = false;  // only the setup is read
    std::optional<Scenario> scenario;
    try {
      scenario = scenario_of(options);
    } catch (const std::exception&) {
      continue;  // a point that does not load has no figures either; the table says so
    }
    const RolloutSpec& rollout = scenario->rollout;
    if (engines_swept && !batching_swept && rollout.scheduler.name != rollout.engine_overhead.scheduler) {
      pinned = rollout.scheduler.name;
      own_batching[rollout.engine] = rollout.engine_overhead.scheduler;
    }
    const std::string note = weight_only_note(scenario->cluster.pool(rollout.pool)->card, rollout.weights);
    if (!note.empty())
      weight_only +=
          (weight_only.empty() ? "" : "; ") + sweep_point_text(table, manifest, point) + ": " + note;
    if (point == table.rows.begin()->first) weight_only_all = note;
    if (weight_only_all && note != *weight_only_all) weight_only_all.reset();
  }
  std::string out;
  if (!own_batching.empty()) out += pinned_batching_line(manifest, scheduler_path, pinned, own_batching);
  if (weight_only_all && !weight_only_all->empty())
    out += "weight-only: every point's " + *weight_only_all + "\n";
  else if (!weight_only.empty())
    out += "weight-only: " + weight_only + "\n";
  return out;
}

}  // namespace rlsim
