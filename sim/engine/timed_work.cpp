// Timed work as sleeps and timed waits, counted.
#include "sim/engine/timed_work.h"

#include <vector>

namespace rlsim::timed_work {
namespace {
long started_count = 0;  // one simulation at a time per process (SimGrid allows one engine)
}  // namespace

void run(double seconds) {
  ++started_count;
  simgrid::s4u::this_actor::sleep_for(seconds);
}

bool run_unless(double seconds, const simgrid::s4u::CommPtr& interrupt) {
  // No work, no wait: SimGrid reads a negative timeout as "for ever".
  if (!(seconds > 0.0)) return false;
  ++started_count;
  const std::vector<simgrid::s4u::ActivityPtr> activities{interrupt};
  return simgrid::s4u::Activity::wait_any_for(activities, seconds) == 0;
}

long started() { return started_count; }

}  // namespace rlsim::timed_work
