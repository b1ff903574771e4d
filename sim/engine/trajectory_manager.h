// TrajectoryManager: the data plane between agents and the LLM. Every call and every reply passes
// through it on the data-plane host, transparently to the agent: it records the message (a fixed
// cost per record plus bytes over its recording bandwidth, one record at a time, so a slow
// recorder queues traffic and shows up as its own busy track), routes calls to instances and
// forwards replies to agents. It keeps the ledger of recorded calls (sim/engine/ledger.h).
//
// Messages are handled in the order they were sent, each once its bytes have arrived. A step
// starts with thousands of calls at once, and SimGrid 3.32's mailbox matching and activity lists
// cost O(N) per message in such a burst. So calls arrive on one mailbox per agent host, in batches
// (the calls its agents sent at one instant, sim/engine/transport/call_batcher.h), and replies on
// one per instance, the manager keeping the order across them in its own FIFO. What the manager
// sends goes out through one send queue per eight instances (sim/engine/transport/send_queue.h):
// calls to those instances, and the replies they produced to their agents. No mailbox or list holds
// more than a share. A queue per instance made half the actors of a large step (8,192 of 18,434 at
// 16,384 GPUs), and SimGrid's cost per activity grows with the actors alive.
//
// A receive window per instance, as TCP's: at most kCallWindow calls sent to an instance and not
// yet taken in by it. Calls past it wait here and leave as one message once the instance has taken
// in half of what it was sent. An instance's mailbox must not queue many thousands of messages:
// SimGrid 3.32 takes each message out of a permanent receiver's queue by shifting the rest, which
// is quadratic in the queue. Quickstart with 80,000 trajectories on 4 instances took 9.0 s without
// the window and takes 4.1 s with it; with 160,000, 32.8 s and 9.0 s.
#pragma once

#include <deque>
#include <memory>
#include <simgrid/s4u.hpp>
#include <vector>

#include "sim/engine/ledger.h"
#include "sim/engine/request.h"
#include "sim/engine/routers/router.h"
#include "sim/engine/transport/send_queue.h"
#include "sim/platform/timeline.h"

namespace rlsim {

class TrajectoryManager {
 public:
  TrajectoryManager(simgrid::s4u::Host* host, int track, double seconds_per_record, double record_bytes_per_s,
                    double bytes_per_token, Router& router, std::vector<simgrid::s4u::Mailbox*> instances,
                    int agent_hosts, Timeline& timeline);

  /// Where calls from agent host `agent_host` arrive (sent there by its CallBatcher).
  simgrid::s4u::Mailbox* calls_mailbox(int agent_host) const {
    return calls_[static_cast<size_t>(agent_host)];
  }
  /// The message `calls` travel to calls_mailbox(h) as: call it from the actor that sends it, just
  /// before sending (the manager handles arrivals in the order they were sent). Each call's reply
  /// comes to its agent_inbox.
  void* wrap_calls(simgrid::s4u::Mailbox* to, CallBatch calls);
  /// An instance's reply (request->instance set), sent now from the calling actor; returns the
  /// send, which that actor retires (sim/engine/transport/activity_retirement.h).
  simgrid::s4u::CommPtr send_reply(LlmRequest* request, double bytes);
  /// Instance `instance` took `count` calls in from its mailbox (called from its actor): the window
  /// has room again, and calls held for it leave.
  void calls_taken(int instance, size_t count);
  const std::vector<LedgerEntry>& ledger() const { return ledger_; }
  /// Calls sent to one instance and not yet taken in, at most.
  static constexpr size_t kCallWindow = 1024;
  void set_step(int step) { step_ = step; }
  /// The actor body; returns after stop().
  void serve();
  /// Asks the actor to return once the messages already sent are handled.
  void stop();

 private:
  enum class Direction { to_llm, to_agent };
  struct Arrival {
    simgrid::s4u::Mailbox* from;  ///< where it arrives; nullptr: stop
    Direction direction;          ///< calls (to_llm, a CallBatch) or a reply (to_agent, an LlmRequest)
    void* payload;                ///< what `from` delivers, to check the order
  };
  void push(Arrival arrival);
  /// What the message carries: the call's new tokens toward the LLM, the output back.
  double message_bytes(const LlmRequest& request, Direction direction) const;
  /// Recording one message: the fixed cost per record plus its bytes over the recording bandwidth.
  double record_s(const LlmRequest& request, Direction direction) const;
  /// Writes records for `seconds` on the data-plane host (one exec), shown on its track.
  void write_records(double seconds);
  /// Records a reply in the ledger and forwards it to its agent.
  void take_reply(LlmRequest* reply);
  /// Records calls that arrived together one after the other, routing and sending each once it is
  /// recorded (or holding it while its instance's window is full).
  void take_calls(const CallBatch& calls);
  /// Sends calls (counted in the instance's window) as one message of `bytes`.
  void send_calls(size_t instance, CallBatch calls, uint64_t bytes);
  /// The queue that sends to and for `instance`: one per kInstancesPerSendQueue consecutive ones.
  SendQueue& send_queue(size_t instance);

  simgrid::s4u::Host* host_;
  int track_;
  double seconds_per_record_;
  double record_bytes_per_s_;
  double bytes_per_token_;
  Router& router_;
  std::vector<simgrid::s4u::Mailbox*> instances_;
  Timeline& timeline_;
  std::vector<simgrid::s4u::Mailbox*> calls_;      ///< per agent host
  std::vector<simgrid::s4u::Mailbox*> replies_;    ///< per instance
  std::deque<Arrival> arrivals_;                   ///< calls and replies sent, not yet handled
  simgrid::s4u::SemaphorePtr arrived_;             ///< counts arrivals_
  std::vector<std::unique_ptr<SendQueue>> sends_;  ///< one per kInstancesPerSendQueue, both directions
  std::vector<LedgerEntry> ledger_;
  std::vector<size_t> outstanding_;            ///< per instance: calls sent, not yet taken in
  std::vector<std::deque<LlmRequest*>> held_;  ///< per instance: calls waiting for room in its window
  int step_ = 0;
};

}  // namespace rlsim
