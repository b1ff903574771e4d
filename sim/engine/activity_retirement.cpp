// Zero-time kernel waits on comms known to be finished (see the header for why).
#include "sim/engine/activity_retirement.h"

#include <vector>

namespace rlsim {
namespace sg4 = simgrid::s4u;

bool received(const sg4::CommPtr& receive) {
  if (!receive->test()) return false;
  // Finished already: a wait_any answers at once, and its kernel wait takes the comm off the list.
  std::vector<sg4::ActivityPtr> finished{receive};
  sg4::Activity::wait_any_for(finished, 0.0);
  return true;
}

void retire_finished(std::deque<sg4::CommPtr>& in_flight) {
  // test() would say "finished" without taking the send off the list (see above); a wait does, and
  // on a send already delivered it returns at once.
  while (!in_flight.empty() && in_flight.front()->get_remaining() <= 0.0) {
    in_flight.front()->wait();
    in_flight.pop_front();
  }
}

}  // namespace rlsim
