// WeightSync: moving new weights from the trainer to every rollout instance as real SimGrid comms
// over the platform's links. "broadcast" is a binomial tree (each holder forwards to one new
// instance per round, log2(n) rounds); "ring" is a pipelined chain in chunks.
#pragma once

#include <simgrid/s4u.hpp>
#include <string>
#include <vector>

#include "sim/scenario/choices.h"
#include "sim/scenario/scenario.h"

namespace rlsim {

/// Blocks the calling actor until every destination holds `bytes`; returns the elapsed seconds.
double sync_weights(simgrid::s4u::Host* source, const std::vector<simgrid::s4u::Host*>& destinations,
                    double bytes, WeightSyncMethod method);

/// Seconds every instance pauses to load one update into its engine beyond the bytes' transfer
/// (`weight_sync.engine_load`, models/timing/engine_weight_load.h); 0 unless the scenario sets it.
double engine_load_pause_s(const Scenario& scenario);

}  // namespace rlsim
