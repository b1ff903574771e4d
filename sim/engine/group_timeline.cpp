// Recording a GPU group's work on its members' tracks.
#include "sim/engine/group_timeline.h"

#include <simgrid/s4u.hpp>

namespace rlsim {

void GroupTimeline::record(GpuState state, double start_s) const {
  const double end_s = simgrid::s4u::Engine::get_clock();
  for (int track : tracks_) timeline_.record(track, state, start_s, end_s, step_);
}

void GroupTimeline::run_busy(double seconds, GpuState state) const {
  if (seconds <= 0.0) return;
  const double start_s = simgrid::s4u::Engine::get_clock();
  simgrid::s4u::this_actor::execute(seconds);
  record(state, start_s);
}

}  // namespace rlsim
