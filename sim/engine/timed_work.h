// Timed work: GPU or data-plane work on a host that no other activity shares, run as a timed wait
// (a SimGrid sleep, or a wait whose timeout is the work's length) instead of an exec. Such an exec
// on a host of speed 1 takes exactly its seconds, so the times are the same (every bundled
// scenario's outputs byte-identical), but each exec costs the max-min solver a variable to settle
// and SimGrid an activity to start and retire, where a timed wait is a timer: at 1,024 GPUs a step
// ran 1.3-1.6x faster (docs/performance.md). Work that may share its host with other work (the
// training phases' lockstep execs, AFD's per-GPU execs) stays an exec, shared as SimGrid shares it.
#pragma once

#include <simgrid/s4u.hpp>

namespace rlsim::timed_work {

/// The calling actor works `seconds` (nothing else runs on its host meanwhile).
void run(double seconds);
/// Works `seconds` unless `interrupt` completes first; true when it did (the caller reads the clock
/// to see how far the work got). No work (`seconds` not above zero) returns false at once.
bool run_unless(double seconds, const simgrid::s4u::CommPtr& interrupt);
/// Timed works started in this process so far (a simulation reports the difference over its run).
long started();

}  // namespace rlsim::timed_work
