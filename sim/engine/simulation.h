// simulate(): one scenario from start to finish on a fresh SimGrid engine — platform, tracks,
// orchestrator actor running the scenario's policy — returning the timeline and its metrics;
// run_on_engine(): the same set-up with another orchestrator (a serving benchmark's clients).
// SimGrid allows one engine per process: call simulate() once per process.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sim/engine/instance_load.h"
#include "sim/engine/ledger.h"
#include "sim/engine/metrics.h"
#include "sim/engine/rl_context.h"
#include "sim/platform/simulation_options.h"
#include "sim/platform/timeline.h"
#include "sim/scenario/scenario.h"

namespace rlsim {

struct SimulationResult {
  Timeline timeline;
  RunMetrics metrics;
  std::vector<LedgerEntry> ledger;  ///< calls the data plane recorded, in recording order
  /// Each rollout instance's load over the run (running and waiting sequences, KV slots held).
  std::vector<std::vector<LoadSample>> instance_load;
};

/// Checks that the scenario's policy can run it (InputError otherwise), before any simulation.
void check_policy(const Scenario& scenario);

SimulationResult simulate(const Scenario& scenario, const SimulationOptions& options = {});

/// What is left once the engine has run: the context the orchestrator worked in, the run's
/// failures, and the engine's work (execs started, messages sent, actors created).
struct EngineRun {
  RlContext& context;
  FaultState& faults;
  long execs = 0;
  long sleeps = 0;  ///< timed work (sim/engine/timed_work.h)
  long messages = 0;
  long actors = 0;
  PriceTally prices{};  ///< per op class, what answered the ops the engine priced
};
using Orchestrate = std::function<void(RlContext& context)>;
using AfterRun = std::function<void(const EngineRun& run)>;

/// The engine side every kind of scenario on an inference deployment shares: a fresh SimGrid
/// engine, the platform, one timeline track per GPU, the rollout instances' GPU groups (TP groups,
/// or AFD instances), the trainer's and each pool's, and the fault state; runs `orchestrate` in the
/// orchestrator actor until the simulation ends, then `after` while all of it still exists.
/// `single_job`: whether any fault stops every GPU (Policy::single_job).
void run_on_engine(const Scenario& scenario, const SimulationOptions& options, bool single_job,
                   Timeline& timeline, const Orchestrate& orchestrate, const AfterRun& after);

}  // namespace rlsim
