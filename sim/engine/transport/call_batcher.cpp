// The call batcher's actor: wait for a first call, send this instant's batches, repeat until closed.
#include "sim/engine/transport/call_batcher.h"

#include <simgrid/kernel/Timer.hpp>

#include "sim/engine/transport/activity_retirement.h"

namespace rlsim {
namespace sg4 = simgrid::s4u;

CallBatcher::CallBatcher(sg4::Host* host, Wrap wrap) : wrap_(std::move(wrap)) {
  actor_ = sg4::Actor::create("call-batcher", host, [this]() { run(); });
}

void CallBatcher::send(sg4::Mailbox* to, LlmRequest* call, uint64_t bytes) {
  auto [at, added] = index_.try_emplace(to, open_.size());
  if (added) open_.push_back(Batch{to, {}, 0});
  Batch& batch = open_[at->second];
  batch.calls.push_back(call);
  batch.bytes += bytes;
  // The first call of an instant: the actor is woken once every actor has run at this instant (a
  // timer set to now fires after the last scheduling round before simulated time moves).
  if (open_.size() == 1 && added) {
    simgrid::kernel::timer::Timer::set(sg4::Engine::get_clock(), [flush = flush_]() { flush->release(); });
  }
}

void CallBatcher::close() {
  closing_ = true;
  flush_->release();
}

void CallBatcher::run() {
  while (true) {
    flush_->acquire();
    if (open_.empty() && closing_) break;
    std::vector<Batch> batches;
    batches.swap(open_);
    index_.clear();
    for (Batch& batch : batches) {
      retire_finished(in_flight_);
      in_flight_.push_back(batch.to->put_async(wrap_(batch.to, std::move(batch.calls)), batch.bytes));
    }
  }
  for (auto& comm : in_flight_) comm->wait();
}

}  // namespace rlsim
