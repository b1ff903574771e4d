// LlmRequest: one LLM call of one trajectory as it travels agent → trajectory manager → inference
// instance and back. The agent owns it (it stays blocked until the reply comes back); the instance
// fills in when the first token and the last token were produced and with which weights.
#pragma once

#include <simgrid/s4u.hpp>

#include "sim/scenario/choices.h"

namespace rlsim {

class TrajectoryManager;

struct LlmRequest {
  int trajectory = 0;          ///< trajectory id (unique over the run)
  int turn = 0;                ///< 0-based turn within the trajectory
  double new_tokens = 0.0;     ///< tokens appended since the previous call (prompt or observation)
  double context_tokens = 0.0; ///< tokens already in the trajectory before `new_tokens`
  double output_tokens = 0.0;  ///< tokens to generate
  double submit_s = 0.0;       ///< when the agent sent it
  int step = 0;                ///< RL step the trajectory belongs to
  simgrid::s4u::Mailbox* agent_inbox = nullptr;  ///< where the agent waits for the reply
  TrajectoryManager* data_plane = nullptr;       ///< set: the reply goes through it, not to agent_inbox
  bool to_agent = false;       ///< direction through the trajectory manager: false = toward the LLM

  // Filled in along the way.
  int instance = -1;              ///< chosen by the router
  double prefilled_tokens = 0.0;  ///< tokens actually prefilled (less on a prefix-cache hit)
  double first_token_s = 0.0;
  double finish_s = 0.0;
  double version_token_sum = 0.0; ///< Σ over generated tokens of the weight version that made them
  int preemptions = 0;
  double generated_tokens = 0.0;  ///< tokens already generated when the call moves to another instance
};

/// What arrives in an instance's mailbox: a request, or a control signal from the orchestrator.
/// `preempt` stops the instance (it answers on `ack` once its GPUs are free); `resume` restarts it
/// with `weight_version` loaded; `fail` (a fault) loses its work and stops it for `pause_s`.
struct InstanceMessage {
  enum class Kind { request, update_weights, stop, preempt, resume, fail };
  Kind kind = Kind::request;
  LlmRequest* request = nullptr;
  int weight_version = 0;      ///< update_weights, resume: the new version
  double pause_s = 0.0;        ///< update_weights, resume: time the instance stops to swap weights in; fail: until repaired
  Preemption preemption = Preemption::save_kv;   ///< preempt: what happens to in-flight sequences
  simgrid::s4u::Mailbox* ack = nullptr;          ///< preempt: where the instance reports it stopped
};

}  // namespace rlsim
