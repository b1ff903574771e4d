// Recording, routing and forwarding in the data plane.
#include "sim/engine/trajectory_manager.h"

#include <cassert>
#include <memory>

namespace rlsim {
namespace sg4 = simgrid::s4u;

TrajectoryManager::TrajectoryManager(sg4::Host* host, int track, double seconds_per_record,
                                     double record_bytes_per_s, double bytes_per_token, Router& router,
                                     std::vector<sg4::Mailbox*> instances, int agent_hosts,
                                     Timeline& timeline)
    : host_(host),
      track_(track),
      seconds_per_record_(seconds_per_record),
      record_bytes_per_s_(record_bytes_per_s),
      bytes_per_token_(bytes_per_token),
      router_(router),
      instances_(std::move(instances)),
      timeline_(timeline),
      arrived_(sg4::Semaphore::create(0)) {
  for (int h = 0; h < agent_hosts; ++h)
    calls_.push_back(sg4::Mailbox::by_name("dataplane-calls-" + std::to_string(h)));
  for (size_t i = 0; i < instances_.size(); ++i)
    replies_.push_back(sg4::Mailbox::by_name("dataplane-replies-" + std::to_string(i)));
}

void TrajectoryManager::push(Arrival arrival) {
  arrivals_.push_back(arrival);
  arrived_->release();
}

void* TrajectoryManager::wrap_calls(sg4::Mailbox* to, CallBatch calls) {
  auto* batch = new CallBatch(std::move(calls));
  push(Arrival{to, Direction::to_llm, batch});
  return batch;
}

sg4::CommPtr TrajectoryManager::send_reply(LlmRequest* request, double bytes) {
  sg4::Mailbox* to = replies_[static_cast<size_t>(request->instance)];
  push(Arrival{to, Direction::to_agent, request});
  return to->put_async(request, static_cast<uint64_t>(bytes));
}

void TrajectoryManager::stop() { push(Arrival{nullptr, Direction::to_llm, nullptr}); }

void TrajectoryManager::serve() {
  // Permanent receiver: messages travel while a record is being written.
  for (auto* mailbox : calls_) mailbox->set_receiver(sg4::Actor::self());
  for (auto* mailbox : replies_) mailbox->set_receiver(sg4::Actor::self());
  for (size_t i = 0; i < instances_.size(); ++i) sends_.push_back(std::make_unique<SendQueue>(host_));
  while (true) {
    arrived_->acquire();
    const Arrival arrival = arrivals_.front();
    arrivals_.pop_front();
    if (!arrival.from) break;
    [[maybe_unused]] void* got = arrival.from->get<void>();
    assert(got == arrival.payload && "a mailbox delivers in the order its messages were sent");
    if (arrival.direction == Direction::to_agent) {
      handle(static_cast<LlmRequest*>(arrival.payload), arrival.direction);
    } else {
      const std::unique_ptr<CallBatch> calls(static_cast<CallBatch*>(arrival.payload));
      for (LlmRequest* call : *calls) handle(call, arrival.direction);
    }
  }
  for (auto* mailbox : calls_) mailbox->set_receiver(nullptr);
  for (auto* mailbox : replies_) mailbox->set_receiver(nullptr);
  for (auto& queue : sends_) queue->close();
}

void TrajectoryManager::handle(LlmRequest* request, Direction direction) {
  record(*request, direction);
  forward(request, direction);
}

double TrajectoryManager::message_bytes(const LlmRequest& request, Direction direction) const {
  return (direction == Direction::to_agent ? request.output_tokens : request.new_tokens) * bytes_per_token_;
}

void TrajectoryManager::record(const LlmRequest& request, Direction direction) {
  const double record_s =
      seconds_per_record_ +
      (record_bytes_per_s_ > 0.0 ? message_bytes(request, direction) / record_bytes_per_s_ : 0.0);
  if (record_s > 0.0) {
    const double start = sg4::Engine::get_clock();
    sg4::this_actor::execute(record_s);
    timeline_.record(track_, GpuState::busy(Phase::record), start, sg4::Engine::get_clock(), step_);
  }
  if (direction == Direction::to_agent) {
    ledger_.push_back(
        LedgerEntry{request.trajectory, request.turn, request.step, request.instance,
                    request.output_tokens > 0.0 ? request.version_token_sum / request.output_tokens : 0.0,
                    request.new_tokens, request.prefilled_tokens, request.output_tokens, request.submit_s,
                    request.first_token_s, request.finish_s});
  }
}

void TrajectoryManager::forward(LlmRequest* request, Direction direction) {
  const auto bytes = static_cast<uint64_t>(message_bytes(*request, direction));
  if (direction == Direction::to_agent) {
    sends_[static_cast<size_t>(request->instance)]->send(request->agent_inbox, request, bytes);
  } else {
    request->instance = router_.route(*request);
    auto* message = new InstanceMessage(InstanceMessage::request(request));
    sends_[static_cast<size_t>(request->instance)]->send(instances_[static_cast<size_t>(request->instance)],
                                                         message, bytes);
  }
}

}  // namespace rlsim
