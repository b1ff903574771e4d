// Link faults (faults.events with `link: [a, b]`): while a link is down its bandwidth drops to a
// trickle, so transfers over it stall — as TCP stalls over a dead link — and go on at full speed
// once it is repaired. Nothing is lost or redone; what waited on those transfers (weight sync,
// calls and replies, trajectories) shows up as waiting GPUs and longer steps. SimGrid's
// Link::turn_off would instead fail the transfers, which RL frameworks retry from the start.
#pragma once

#include "sim/platform/platform.h"
#include "sim/scenario/fault_spec.h"

namespace rlsim {

/// Spawns a daemon actor that takes the links of `faults.link_events` down and up on time. Call
/// from the simulation's setup, before the engine runs; does nothing without link events.
void start_link_faults(const FaultsSpec& faults, const Platform& platform);

/// Seconds during which any failed link was down, summed over events.
double link_seconds_down(const FaultsSpec& faults);

}  // namespace rlsim
