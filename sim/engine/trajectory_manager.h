// TrajectoryManager: the data plane between agents and the LLM. Every call and every reply passes
// through it on the data-plane host, transparently to the agent: it records the message (a fixed
// cost per record plus bytes over its recording bandwidth, one record at a time, so a slow
// recorder queues traffic and shows up as its own busy track), routes calls to instances and
// forwards replies to agents. It keeps the ledger of recorded calls (sim/engine/ledger.h).
#pragma once

#include <simgrid/s4u.hpp>

#include <vector>

#include "sim/engine/ledger.h"
#include "sim/engine/request.h"
#include "sim/engine/router.h"
#include "sim/engine/timeline.h"

namespace rlsim {

class TrajectoryManager {
 public:
  TrajectoryManager(simgrid::s4u::Host* host, int track, double seconds_per_record, double record_bytes_per_s,
                    double bytes_per_token, Router& router, std::vector<simgrid::s4u::Mailbox*> instances,
                    Timeline& timeline);

  simgrid::s4u::Mailbox* mailbox() const { return mailbox_; }
  const std::vector<LedgerEntry>& ledger() const { return ledger_; }
  void set_step(int step) { step_ = step; }
  /// The actor body; returns after stop().
  void serve();
  /// Asks the actor to return once the messages already sent are handled.
  void stop();

 private:
  simgrid::s4u::Host* host_;
  int track_;
  double seconds_per_record_;
  double record_bytes_per_s_;
  double bytes_per_token_;
  Router& router_;
  std::vector<simgrid::s4u::Mailbox*> instances_;
  Timeline& timeline_;
  simgrid::s4u::Mailbox* mailbox_;
  std::vector<LedgerEntry> ledger_;
  int step_ = 0;
  LlmRequest stop_signal_;  ///< sent through the mailbox to end serve()
};

}  // namespace rlsim
