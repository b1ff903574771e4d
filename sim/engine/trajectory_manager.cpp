// Recording, routing and forwarding in the data plane.
#include "sim/engine/trajectory_manager.h"

#include <cassert>
#include <memory>

#include "sim/engine/timed_work.h"

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
  for (size_t i = 0; i < instances_.size(); i += kInstancesPerSendQueue)
    sends_.push_back(std::make_unique<SendQueue>(host_));
  outstanding_.assign(instances_.size(), 0);
  held_.resize(instances_.size());
  while (true) {
    arrived_->acquire();
    const Arrival arrival = arrivals_.front();
    arrivals_.pop_front();
    if (!arrival.from) break;
    [[maybe_unused]] void* got = arrival.from->get<void>();
    assert(got == arrival.payload && "a mailbox delivers in the order its messages were sent");
    if (arrival.direction == Direction::to_agent) {
      take_reply(static_cast<LlmRequest*>(arrival.payload));
    } else {
      const std::unique_ptr<CallBatch> calls(static_cast<CallBatch*>(arrival.payload));
      take_calls(*calls);
    }
  }
  for (auto* mailbox : calls_) mailbox->set_receiver(nullptr);
  for (auto* mailbox : replies_) mailbox->set_receiver(nullptr);
  for (auto& queue : sends_) queue->close();
}

double TrajectoryManager::message_bytes(const LlmRequest& request, Direction direction) const {
  return (direction == Direction::to_agent ? request.output_tokens : request.new_tokens) * bytes_per_token_;
}

double TrajectoryManager::record_s(const LlmRequest& request, Direction direction) const {
  return seconds_per_record_ +
         (record_bytes_per_s_ > 0.0 ? message_bytes(request, direction) / record_bytes_per_s_ : 0.0);
}

void TrajectoryManager::write_records(double seconds) {
  if (seconds <= 0.0) return;
  const double start = sg4::Engine::get_clock();
  timed_work::run(seconds);  // the data-plane host records one message at a time
  timeline_.record(track_, GpuState::busy(Phase::record), start, sg4::Engine::get_clock(), step_);
}

void TrajectoryManager::take_reply(LlmRequest* reply) {
  write_records(record_s(*reply, Direction::to_agent));
  ledger_.push_back(LedgerEntry{
      reply->trajectory, reply->turn, reply->step, reply->instance,
      reply->output_tokens > 0.0 ? reply->version_token_sum / reply->output_tokens : 0.0, reply->new_tokens,
      reply->prefilled_tokens, reply->output_tokens, reply->submit_s, reply->first_token_s, reply->finish_s});
  send_queue(static_cast<size_t>(reply->instance))
      .send(reply->agent_inbox, reply, static_cast<uint64_t>(message_bytes(*reply, Direction::to_agent)));
}

void TrajectoryManager::take_calls(const CallBatch& calls) {
  for (LlmRequest* call : calls) {
    write_records(record_s(*call, Direction::to_llm));
    call->instance = router_.route(*call);
    const auto i = static_cast<size_t>(call->instance);
    if (held_[i].empty() && outstanding_[i] < kCallWindow) {
      ++outstanding_[i];
      send_calls(i, {call}, static_cast<uint64_t>(message_bytes(*call, Direction::to_llm)));
    } else {
      held_[i].push_back(call);
    }
  }
}

void TrajectoryManager::calls_taken(int instance, size_t count) {
  const auto i = static_cast<size_t>(instance);
  outstanding_[i] -= count;
  if (held_[i].empty() || outstanding_[i] > kCallWindow / 2) return;
  // The window is half empty again: the calls held for it leave together, in their order.
  CallBatch batch;
  uint64_t bytes = 0;
  while (!held_[i].empty() && outstanding_[i] + batch.size() < kCallWindow) {
    bytes += static_cast<uint64_t>(message_bytes(*held_[i].front(), Direction::to_llm));
    batch.push_back(held_[i].front());
    held_[i].pop_front();
  }
  outstanding_[i] += batch.size();
  send_calls(i, std::move(batch), bytes);
}

SendQueue& TrajectoryManager::send_queue(size_t instance) {
  return *sends_[instance / kInstancesPerSendQueue];
}

void TrajectoryManager::send_calls(size_t instance, CallBatch calls, uint64_t bytes) {
  auto* message = new InstanceMessage(InstanceMessage::requests(std::move(calls)));
  message->windowed = true;
  send_queue(instance).send(instances_[instance], message, bytes);
}

}  // namespace rlsim
