// The send queue's actor: wait for a message, retire finished sends, put the message, repeat.
#include "sim/engine/transport/send_queue.h"

#include "sim/engine/transport/activity_retirement.h"

namespace rlsim {
namespace sg4 = simgrid::s4u;

SendQueue::SendQueue(sg4::Host* host) {
  sg4::Actor::create("send-queue", host, [this]() { run(); });
}

void SendQueue::send(sg4::Mailbox* to, void* payload, uint64_t bytes) {
  queue_.push_back(Message{to, payload, bytes});
  queued_->release();
}

void SendQueue::close() {
  queue_.push_back(Message{nullptr, nullptr, 0});
  queued_->release();
}

void SendQueue::run() {
  while (true) {
    queued_->acquire();
    const Message message = queue_.front();
    queue_.pop_front();
    if (!message.to) break;
    retire_finished(in_flight_);
    in_flight_.push_back(message.to->put_async(message.payload, message.bytes));
  }
  // Everything was received before close(): the data plane closes after the last reply.
  for (auto& comm : in_flight_) comm->wait();
}

}  // namespace rlsim
