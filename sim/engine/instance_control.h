// InstanceControl: the control plane of one inference instance as an explicit state machine. The
// orchestrator's messages (instance_message kinds other than `request`) drive it:
//
//   serving ──preempt──► preempting ──(instance stopped and reported)──► paused ──resume──► serving
//   serving, paused ──stop──► stopping (finish the work in hand; no more messages are taken)
//
// What is not a state stays data: a weight update waiting for the next iteration boundary, the
// preemption order being acted on, the weights to load on resume, and a pending fault. A fault is
// an interrupt, not a state: it can arrive in any state and is acted on at the next boundary where
// the instance runs (a paused instance first waits for its resume), so it is kept as the time the
// instance is repaired. Every transition is in instance_control.cpp; the instance performs the
// actions (inference_instance.cpp).
#pragma once

#include <optional>
#include <simgrid/s4u.hpp>

#include "sim/engine/request.h"

namespace rlsim {

enum class InstanceState {
  serving,     ///< taking calls and running iterations
  preempting,  ///< told to leave rollout: acts on it at the next iteration boundary
  paused,      ///< out of rollout (label scheduling): hands on any call that arrives until resumed
  stopping,    ///< told to stop: finishes its work, then its actor ends
};

/// Weights to load: their version, and how long the instance stops to swap them in.
struct WeightLoad {
  int version = 0;
  double pause_s = 0.0;
};

/// How to leave rollout, and where to report once the GPUs are free.
struct PreemptOrder {
  Preemption mode = Preemption::save_kv;
  simgrid::s4u::Mailbox* ack = nullptr;
};

class InstanceControl {
 public:
  /// Applies a control message (any kind but `request`) that arrived at `now_s`.
  void on_message(const InstanceMessage& message, double now_s);

  InstanceState state() const { return state_; }
  /// Whether the instance still takes messages (it stops posting receives once told to stop).
  bool receiving() const { return state_ != InstanceState::stopping; }
  /// The time a pending fault is repaired, once: the instance acts on it now.
  std::optional<double> take_fault();
  /// A weight update waiting for this boundary, once.
  std::optional<WeightLoad> take_weight_update();
  /// preempting → paused: the instance has acted on the order (returned) and reports it.
  PreemptOrder pause();
  /// Leaving the pause: the weights to load when resumed; none when told to stop instead.
  std::optional<WeightLoad> leave_pause();

 private:
  InstanceState state_ = InstanceState::serving;
  PreemptOrder preempt_;
  std::optional<WeightLoad> pending_weights_;
  WeightLoad resume_;
  std::optional<double> repaired_s_;
};

}  // namespace rlsim
