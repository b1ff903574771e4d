// SimulationOptions: how to run SimGrid for one simulation (not what to simulate). Shared by the RL
// engine (sim/engine/simulation.h) and the AFD simulation (sim/afd), so it sits below both.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace rlsim {

struct RlRunTerms;  // models/cost/profile.h

struct SimulationOptions {
  /// Extra SimGrid arguments, e.g. "--cfg=contexts/factory:thread" or "--log=root.thres:info".
  std::vector<std::string> simgrid_args;
  /// Called as an RL run records each step (steps recorded so far, steps of the run), for progress.
  std::function<void(int steps_done, int steps_total)> on_step{};
  /// A whole RL run's terms to use instead of the scenario profile's (calibrate --format verl
  /// tries its fits with these); null: the profile's, if any. Must outlive the simulation.
  const RlRunTerms* rl_run = nullptr;
};

}  // namespace rlsim
