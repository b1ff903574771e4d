// The instance's control-plane transitions, all of them.
#include "sim/engine/instance_control.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace rlsim {

void InstanceControl::on_message(const InstanceMessage& message, double now_s) {
  using Kind = InstanceMessage::Kind;
  switch (message.kind) {
    case Kind::request: assert(false && "calls are not control messages"); break;
    case Kind::update_weights: pending_weights_ = WeightLoad{message.weight_version, message.pause_s}; break;
    case Kind::stop:
      assert(state_ != InstanceState::preempting && "stop sent before the preemption was acknowledged");
      state_ = InstanceState::stopping;
      break;
    case Kind::preempt:
      assert(state_ == InstanceState::serving &&
             "preempt sent to an instance already taken away from rollout");
      state_ = InstanceState::preempting;
      preempt_ = PreemptOrder{message.preemption, message.ack};
      break;
    case Kind::resume:
      assert(state_ == InstanceState::paused && "resume sent to an instance that is not paused");
      state_ = InstanceState::serving;
      resume_ = WeightLoad{message.weight_version, message.pause_s};
      break;
    case Kind::fail:
      // Faults that overlap keep the instance down until the last repair.
      repaired_s_ = repaired_s_ ? std::max(*repaired_s_, now_s + message.pause_s) : now_s + message.pause_s;
      break;
  }
}

std::optional<double> InstanceControl::take_fault() { return std::exchange(repaired_s_, std::nullopt); }

std::optional<WeightLoad> InstanceControl::take_weight_update() {
  return std::exchange(pending_weights_, std::nullopt);
}

PreemptOrder InstanceControl::pause() {
  assert(state_ == InstanceState::preempting && "an instance pauses only when told to leave rollout");
  state_ = InstanceState::paused;
  return preempt_;
}

std::optional<WeightLoad> InstanceControl::leave_pause() {
  assert(state_ != InstanceState::paused && "left the pause before a resume or a stop");
  if (state_ == InstanceState::stopping) return std::nullopt;
  return resume_;
}

}  // namespace rlsim
