// Zero-time kernel waits on comms known to be finished (see the header for why).
#include "sim/engine/transport/activity_retirement.h"

#include <vector>

namespace rlsim {
namespace sg4 = simgrid::s4u;

bool received(const sg4::CommPtr& receive) {
  // A kernel wait of zero time: it takes a finished comm off the list, and leaves one still
  // pending as it is (unlike a comm's own wait_for, whose timeout cancels it).
  std::vector<sg4::ActivityPtr> receives{receive};
  return sg4::Activity::wait_any_for(receives, 0.0) == 0;
}

void retire_finished(std::deque<sg4::CommPtr>& in_flight) {
  // test() would say "finished" without taking the send off the list (see above); a wait does, and
  // on a send already delivered it returns at once.
  // The transfer's end time is set when it ends; its remaining bytes are 0 from the start for an
  // empty message, and waiting on one still in transit would block.
  while (!in_flight.empty() && in_flight.front()->get_finish_time() >= 0.0) {
    in_flight.front()->wait();
    in_flight.pop_front();
  }
}

}  // namespace rlsim
