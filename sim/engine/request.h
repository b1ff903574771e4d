// LlmRequest: one LLM call of one trajectory as it travels agent → trajectory manager → inference
// instance and back. The agent owns it (it stays blocked until the reply comes back); the instance
// fills in when the first token and the last token were produced and with which weights. Which way
// a message travels belongs to the message (InstanceMessage, the trajectory manager's arrivals),
// not to the request.
#pragma once

#include <simgrid/s4u.hpp>
#include <vector>

#include "sim/scenario/choices.h"

namespace rlsim {

/// Bytes of one token on the wire (token ids), for calls and replies.
inline constexpr double kWireBytesPerToken = 4.0;

struct LlmRequest {
  int trajectory = 0;                 ///< trajectory id (unique over the run)
  int turn = 0;                       ///< 0-based turn within the trajectory
  double new_tokens = 0.0;            ///< tokens appended since the previous call (prompt or observation)
  double context_tokens = 0.0;        ///< tokens already in the trajectory before `new_tokens`
  double output_tokens = 0.0;         ///< tokens to generate
  double shared_prefix_tokens = 0.0;  ///< the call's first tokens that are shared prompt `prefix_group`
  int prefix_group = -1;              ///< -1: no shared prefix
  double submit_s = 0.0;              ///< when the agent sent it
  /// What the caller waits beyond the engine (LlmCall::api_server_s): it sees the first token at
  /// `first_token_s` + this and the reply at `finish_s` + this.
  double api_server_s = 0.0;
  int step = 0;                                  ///< RL step the trajectory belongs to
  simgrid::s4u::Mailbox* agent_inbox = nullptr;  ///< where the agent waits for the reply

  // Filled in along the way.
  int instance = -1;              ///< chosen by the router
  double prefilled_tokens = 0.0;  ///< tokens actually prefilled (less on a prefix-cache hit)
  double prefill_start_s = -1.0;  ///< when its first prefill (or first chunk) started: its queueing ended
  double first_token_s = 0.0;
  double finish_s = 0.0;
  double version_token_sum = 0.0;  ///< Σ over generated tokens of the weight version that made them
  int preemptions = 0;
  double generated_tokens = 0.0;  ///< tokens already generated when the call moves to another instance
};

/// Calls that travel together: sent at one simulated instant from one host to one destination, as
/// one transfer (sim/engine/transport/call_batcher.h).
using CallBatch = std::vector<LlmRequest*>;

/// What arrives in an instance's mailbox: calls, or a control signal from the orchestrator,
/// built by the named constructors below. `preempt` stops the instance (it answers on `ack` once its
/// GPUs are free); `resume` restarts it with `weight_version` loaded; `fail` (a fault) loses its work
/// and stops it for `pause_s`. Sent by pointer; the instance deletes it.
struct InstanceMessage {
  enum class Kind { request, update_weights, stop, preempt, resume, fail };
  Kind kind = Kind::request;
  CallBatch calls;         ///< request: the calls to serve, in the order they were sent
  bool windowed = false;   ///< request: sent under the data plane's window (it is told when taken in)
  int weight_version = 0;  ///< update_weights, resume: the new version
  double pause_s =
      0.0;  ///< update_weights, resume: time the instance stops to swap weights in; fail: until repaired
  Preemption preemption = Preemption::save_kv;  ///< preempt: what happens to in-flight sequences
  simgrid::s4u::Mailbox* ack = nullptr;         ///< preempt: where the instance reports it stopped

  /// An LLM call to serve.
  static InstanceMessage request(LlmRequest* call) { return {.kind = Kind::request, .calls = {call}}; }
  /// LLM calls sent together, to serve in their order.
  static InstanceMessage requests(CallBatch calls) {
    return {.kind = Kind::request, .calls = std::move(calls)};
  }
  /// Load weights `version` at the next iteration boundary, pausing `pause_s` to swap them in.
  static InstanceMessage weights(int version, double pause_s) {
    return {.kind = Kind::update_weights, .calls = {}, .weight_version = version, .pause_s = pause_s};
  }
  /// Finish the work in hand, then end the actor.
  static InstanceMessage stop() { return {.kind = Kind::stop, .calls = {}}; }
  /// Leave rollout at the next iteration boundary, handling in-flight calls as `mode` says.
  static InstanceMessage preempt(Preemption mode, simgrid::s4u::Mailbox* ack) {
    return {.kind = Kind::preempt, .calls = {}, .preemption = mode, .ack = ack};
  }
  /// Return to rollout with weights `version`, pausing `pause_s` first.
  static InstanceMessage resume(int version, double pause_s) {
    return {.kind = Kind::resume, .calls = {}, .weight_version = version, .pause_s = pause_s};
  }
  /// A fault: lose the work in flight and stay down `down_s`.
  static InstanceMessage fail(double down_s) { return {.kind = Kind::fail, .calls = {}, .pause_s = down_s}; }
};

}  // namespace rlsim
