// A sweep over engine presets whose scenario pins the batching: `serve.scheduler` (or
// `rollout.scheduler`) set in the file or by --set overrides each engine's own batching
// (scenarios/catalog/engines.yaml), so every point ran the same scheduler, not the engines as they
// ship. The sweep's findings say so and give the argument that lets each engine batch its own way.
#pragma once

#include <functional>
#include <string>

#include "sim/scenario/scenario.h"
#include "sim/scenario/scenario_loader.h"
#include "tools/sweep/sweep_manifest.h"

namespace rlsim {

/// The rollout block (engine, scheduler) of the scenario loaded with `options`; throws when it
/// does not load.
using RolloutOf = std::function<RolloutSpec(const LoadOptions& options)>;

/// For a sweep with an axis over `block`.engine ("serve" or "rollout") and none over its scheduler:
/// the finding line naming the engines that ran a batching other than their own, and the remedy
/// (--unset, or leaving out the --set that pins it); "" when every engine ran its own.
std::string pinned_batching_note(const SweepManifest& manifest, const std::string& block,
                                 const RolloutOf& rollout_of);

}  // namespace rlsim
