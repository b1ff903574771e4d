// Recording, routing and forwarding in the data plane.
#include "sim/engine/trajectory_manager.h"

#include <deque>

namespace rlsim {
namespace sg4 = simgrid::s4u;

TrajectoryManager::TrajectoryManager(sg4::Host* host, int track, double seconds_per_record, double record_bytes_per_s,
                                     double bytes_per_token, Router& router, std::vector<sg4::Mailbox*> instances,
                                     Timeline& timeline)
    : host_(host),
      track_(track),
      seconds_per_record_(seconds_per_record),
      record_bytes_per_s_(record_bytes_per_s),
      bytes_per_token_(bytes_per_token),
      router_(router),
      instances_(std::move(instances)),
      timeline_(timeline),
      mailbox_(sg4::Mailbox::by_name("trajectory-manager")) {}

void TrajectoryManager::stop() { mailbox_->put_init(&stop_signal_, 0)->detach(); }

void TrajectoryManager::serve() {
  mailbox_->set_receiver(sg4::Actor::self());  // traffic arrives while a record is being written
  // Messages that have already arrived are taken off the mailbox at once, in order, before the next
  // record: left there, a burst of N (a step's first calls all arrive together) costs SimGrid's
  // bookkeeping O(N) per completing activity, O(N²) in all (the × 2 benchmark took 3.2× the base
  // step's time, 2.4× with this). Timing and order are unchanged: a ready message takes no time.
  std::deque<LlmRequest*> backlog;
  while (true) {
    if (backlog.empty()) backlog.push_back(mailbox_->get<LlmRequest>());
    while (mailbox_->ready()) backlog.push_back(mailbox_->get<LlmRequest>());
    auto* request = backlog.front();
    backlog.pop_front();
    if (request == &stop_signal_) {
      mailbox_->set_receiver(nullptr);
      return;
    }
    const double tokens = request->to_agent ? request->output_tokens : request->new_tokens;
    const double bytes = tokens * bytes_per_token_;
    const double record_s = seconds_per_record_ + (record_bytes_per_s_ > 0.0 ? bytes / record_bytes_per_s_ : 0.0);
    if (record_s > 0.0) {
      const double start = sg4::Engine::get_clock();
      sg4::this_actor::execute(record_s);
      timeline_.record(track_, "busy:record", start, sg4::Engine::get_clock(), step_);
    }
    if (request->to_agent) {
      ledger_.push_back(LedgerEntry{request->trajectory, request->turn, request->step, request->instance,
                                    request->output_tokens > 0.0 ? request->version_token_sum / request->output_tokens : 0.0,
                                    request->new_tokens, request->prefilled_tokens, request->output_tokens,
                                    request->submit_s, request->first_token_s, request->finish_s});
      request->agent_inbox->put_init(request, static_cast<uint64_t>(bytes))->detach();
    } else {
      request->instance = router_.route(*request);
      auto* message = new InstanceMessage{InstanceMessage::Kind::request, request, 0, 0.0};
      instances_[static_cast<size_t>(request->instance)]->put_init(message, static_cast<uint64_t>(bytes))->detach();
    }
  }
}

}  // namespace rlsim
