// TrajectoryManager: the data plane between agents and the LLM. Every call and every reply passes
// through it on the data-plane host, transparently to the agent: it records the message (a fixed
// cost per record plus bytes over its recording bandwidth, one record at a time, so a slow
// recorder queues traffic and shows up as its own busy track), routes calls to instances and
// forwards replies to agents. It keeps the ledger of recorded calls (sim/engine/ledger.h).
//
// Messages are handled in the order they were sent, each once its bytes have arrived. A step
// starts with thousands of calls at once, and SimGrid 3.32's mailbox matching and activity lists
// cost O(N) per message in such a burst. So calls arrive on one mailbox per agent host and replies
// on one per instance, the manager keeping the order across them in its own FIFO, and what it sends
// goes out through one send queue per instance (sim/engine/transport/send_queue.h): calls to that instance,
// and the replies it produced to their agents. No mailbox or list holds more than a share.
#pragma once

#include <deque>
#include <memory>
#include <simgrid/s4u.hpp>
#include <vector>

#include "sim/engine/ledger.h"
#include "sim/engine/request.h"
#include "sim/engine/routers/router.h"
#include "sim/engine/transport/call_batcher.h"
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
  const std::vector<LedgerEntry>& ledger() const { return ledger_; }
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
  /// Records and forwards one call or reply.
  void handle(LlmRequest* request, Direction direction);
  void record(const LlmRequest& request, Direction direction);
  void forward(LlmRequest* request, Direction direction);

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
  std::vector<std::unique_ptr<SendQueue>> sends_;  ///< one per instance, both directions
  std::vector<LedgerEntry> ledger_;
  int step_ = 0;
};

}  // namespace rlsim
