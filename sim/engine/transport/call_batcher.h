// CallBatcher: an actor on an agent host that sends the LLM calls its agents issue at one simulated
// instant to one destination as one transfer, of their summed bytes.
//
// Why it exists: a step starts with every trajectory's first call at once. Sent one transfer each,
// N calls are N flows sharing the agents' links, and SimGrid's max-min solver re-shares every flow
// on a link each time one of them ends: O(N) per call, O(N²) per burst (quickstart with 16,000
// trajectories of mixed prompt lengths spent over half its time there). Calls bound for one
// instance (or the data plane) leave together in one transfer instead, as a client that batches
// its requests would send them: each call arrives when the last byte of the batch does, which is
// when the last of them would have arrived sharing the link (the same bytes cross the same route),
// and at most the batch's serialisation time (bytes over the route's bandwidth) later than the
// first would have.
//
// A batch holds every call sent at its instant: the first call sets a SimGrid timer at the current
// time, which fires only after the last scheduling round of that instant (the orchestrator starts
// agents one round after another, so waking the actor at once gave batches of one or two calls).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <simgrid/s4u.hpp>
#include <unordered_map>
#include <vector>

#include "sim/engine/request.h"

namespace rlsim {

class CallBatcher {
 public:
  /// Builds the message a batch travels as, for mailbox `to` (the receiver deletes it).
  using Wrap = std::function<void*(simgrid::s4u::Mailbox* to, CallBatch calls)>;

  /// Starts the actor on `host`; it sends until close().
  CallBatcher(simgrid::s4u::Host* host, Wrap wrap);
  /// Queues `call` (`bytes` on the wire) for `to`; it leaves at the current simulated time.
  void send(simgrid::s4u::Mailbox* to, LlmRequest* call, uint64_t bytes);
  /// The actor returns once everything queued has been sent and received.
  void close();
  simgrid::s4u::ActorPtr actor() const { return actor_; }

 private:
  struct Batch {
    simgrid::s4u::Mailbox* to;
    CallBatch calls;
    uint64_t bytes = 0;
  };
  void run();

  Wrap wrap_;
  simgrid::s4u::ActorPtr actor_;
  bool closing_ = false;
  std::vector<Batch> open_;                                   ///< this instant's, by first call
  std::unordered_map<simgrid::s4u::Mailbox*, size_t> index_;  ///< destination → position in open_
  simgrid::s4u::SemaphorePtr flush_ = simgrid::s4u::Semaphore::create(0);
  std::deque<simgrid::s4u::CommPtr> in_flight_;  ///< sent, not yet seen finished, oldest first
};

}  // namespace rlsim
