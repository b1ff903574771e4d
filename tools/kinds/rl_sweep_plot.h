// The plot of an RL sweep: step time against the first numeric swept field (or the first field, as
// categories), one series per combination of the other swept fields' values, the point the summary
// names best ringed, points that did not run (over memory or refused, --skip-invalid) left out as
// gaps and counted in the subtitle (sweep_plot_frame.h), and a title naming the model, the cards and
// what was swept.
#pragma once

#include <exception>
#include <optional>
#include <string>

#include "sim/scenario/scenario.h"
#include "sim/scenario/scenario_loader.h"
#include "tools/report/svg_plot.h"
#include "tools/sweep/sweep_csv.h"
#include "tools/sweep/sweep_manifest.h"
#include "tools/sweep/sweep_objective.h"

namespace rlsim {

/// What the plot's title says the sweep ran: "Qwen3-8B, rollout 16×H20 + train 16×H800".
struct SweptSetup {
  std::string model;
  std::string cards;
};
/// `model` and the cluster's pools as "rollout 16xH20 + train 16xH800" (the AFD plot's title too).
SweptSetup swept_setup_of(const std::string& model, const ClusterSpec& cluster);

/// The swept scenario's setup as `load` (a kind's loader, given the scenario and the sweep's --set
/// and --unset, memory unchecked: the base values of swept fields need not fit) reads it; a
/// scenario that no longer loads still plots, titled by its path.
template <class Load>
SweptSetup swept_setup_loaded_by(const SweepManifest& manifest, Load load) {
  try {
    LoadOptions options;
    options.unsets = manifest.unsets;
    options.overrides = manifest.sets;
    options.check_memory = false;
    const auto loaded = load(manifest.scenario, options);
    return swept_setup_of(loaded.scenario.model.name, loaded.scenario.cluster);
  } catch (const std::exception&) {
    return {manifest.scenario, "scenario no longer loads"};
  }
}

/// `objective` picks the point ringed: the one the sweep's summary names best.
std::optional<LinePlot> rl_sweep_plot(const SweepTable& table, const SweepManifest& manifest,
                                      const SweptSetup& setup, const SweepObjective& objective);

}  // namespace rlsim
