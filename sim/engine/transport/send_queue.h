// SendQueue: an actor on a sender's host that puts messages into mailboxes on the sender's behalf,
// each as soon as it is queued (same simulated time, same route, same bytes as a put by the sender).
//
// Why it exists: SimGrid 3.32 files every detached send on one list (maestro's) and every other
// activity on its issuer's list, and at each completion walks the whole list to take the activity
// off (sim/engine/transport/activity_retirement.h). A data plane that forwards a step's burst of N calls
// with detached sends, or from one actor, pays O(N) per completion, O(N²) per burst. A queue sends
// without detaching and takes its own finished sends off its list (retire) before each new one;
// with one queue per destination group no list grows with the burst.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <simgrid/s4u.hpp>

namespace rlsim {

/// Instances one queue sends to (and, in the data plane, for): a queue per instance made half the
/// actors of a large step, and SimGrid's cost per activity grows with the actors alive.
inline constexpr size_t kInstancesPerSendQueue = 8;

class SendQueue {
 public:
  /// Starts the actor on `host`; it sends until close().
  explicit SendQueue(simgrid::s4u::Host* host);
  /// Queues `payload` (`bytes` on the wire) for `to`; the send starts at the current simulated time.
  void send(simgrid::s4u::Mailbox* to, void* payload, uint64_t bytes);
  /// The actor returns once everything queued has been sent.
  void close();

 private:
  struct Message {
    simgrid::s4u::Mailbox* to;  ///< nullptr: close
    void* payload;
    uint64_t bytes;
  };
  void run();

  std::deque<Message> queue_;
  simgrid::s4u::SemaphorePtr queued_ = simgrid::s4u::Semaphore::create(0);
  std::deque<simgrid::s4u::CommPtr> in_flight_;  ///< sent, not yet seen finished, oldest first
};

}  // namespace rlsim
