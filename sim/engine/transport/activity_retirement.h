// Taking finished communications off their actor's SimGrid activity list.
//
// SimGrid 3.32 files every activity an actor starts on that actor's list (detached sends on
// maestro's) and, at each completion, walks the whole list to take the finished one off. A comm
// whose end is only seen through test() is never taken off: the list then grows with every such
// comm and each later completion of the actor costs more (quadratic over a run; measured with a
// bare SimGrid program: 10k polled receives took 3 s, the next 10k 13 s, then 47 s, then 80 s). A
// kernel-level wait takes it off, and on a comm already finished returns at once; an s4u wait()
// after test() does not reach the kernel, a wait_any does.
#pragma once

#include <deque>
#include <simgrid/s4u.hpp>

namespace rlsim {

/// Whether `receive` has completed; when it has, it is also taken off the calling actor's list.
/// Call it from the actor that posted the receive.
bool received(const simgrid::s4u::CommPtr& receive);

/// Takes the sends at the front of `in_flight` whose transfer has ended off their issuer's list;
/// call it from the actor that started them. It never blocks: a send still in transit or unmatched
/// stays (an empty message reports no bytes remaining from its start, so remaining bytes cannot
/// tell).
void retire_finished(std::deque<simgrid::s4u::CommPtr>& in_flight);

}  // namespace rlsim
