// simulate(): one scenario from start to finish on a fresh SimGrid engine — platform, tracks,
// orchestrator actor running the scenario's policy — returning the timeline and its metrics.
// SimGrid allows one engine per process: call simulate() once per process.
#pragma once

#include <string>
#include <vector>

#include "sim/engine/ledger.h"
#include "sim/engine/metrics.h"
#include "sim/platform/simulation_options.h"
#include "sim/platform/timeline.h"
#include "sim/scenario/scenario.h"

namespace rlsim {

struct SimulationResult {
  Timeline timeline;
  RunMetrics metrics;
  std::vector<LedgerEntry> ledger;  ///< calls the data plane recorded, in recording order
};

/// Checks that the scenario's policy can run it (InputError otherwise), before any simulation.
void check_policy(const Scenario& scenario);

SimulationResult simulate(const Scenario& scenario, const SimulationOptions& options = {});

}  // namespace rlsim
