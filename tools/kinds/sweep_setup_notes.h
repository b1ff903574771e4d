// What a sweep's points ran that its table does not show, said under the table:
// - an engine sweep whose scenario pins the batching: `serve.scheduler` (or `rollout.scheduler`)
//   set in the file or by --set overrides each engine's own (scenarios/catalog/engines.yaml), so
//   every point ran the same scheduler, not the engines as they ship; the note gives the argument
//   that lets each engine batch its own way;
// - points whose inference weights have no peak on their card (fp8 on A100): the roofline
//   multiplied them at the 16-bit peak (weight-only), as `rlsim run` says of one run.
#pragma once

#include <functional>
#include <string>

#include "sim/scenario/scenario.h"
#include "sim/scenario/scenario_loader.h"
#include "tools/sweep/sweep_csv.h"
#include "tools/sweep/sweep_manifest.h"

namespace rlsim {

/// The scenario of one point loaded with `options` (for a serving sweep, its deployment); throws
/// when it does not load.
using PointScenarioOf = std::function<Scenario(const LoadOptions& options)>;

/// The notes on the finished points of `table`, whose inference block is `block` ("serve" or
/// "rollout"), newline-terminated; "" when there is nothing to say.
std::string sweep_setup_notes(const SweepTable& table, const SweepManifest& manifest,
                              const std::string& block, const PointScenarioOf& scenario_of);

}  // namespace rlsim
