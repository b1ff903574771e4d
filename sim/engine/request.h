// LlmRequest: one LLM call of one trajectory as it travels agent → trajectory manager → inference
// instance and back. The agent owns it (it stays blocked until the reply comes back); the instance
// fills in when the first token and the last token were produced and with which weights.
#pragma once

#include <simgrid/s4u.hpp>

namespace rlsim {

struct LlmRequest {
  int trajectory = 0;          ///< trajectory id (unique over the run)
  int turn = 0;                ///< 0-based turn within the trajectory
  double new_tokens = 0.0;     ///< tokens appended since the previous call (prompt or observation)
  double context_tokens = 0.0; ///< tokens already in the trajectory before `new_tokens`
  double output_tokens = 0.0;  ///< tokens to generate
  double submit_s = 0.0;       ///< when the agent sent it
  int step = 0;                ///< RL step the trajectory belongs to
  simgrid::s4u::Mailbox* agent_inbox = nullptr;  ///< where the agent waits for the reply
  simgrid::s4u::Mailbox* reply_to = nullptr;     ///< where the instance sends the reply (agent or data plane)
  bool to_agent = false;       ///< direction through the trajectory manager: false = toward the LLM

  // Filled in along the way.
  int instance = -1;              ///< chosen by the router
  double prefilled_tokens = 0.0;  ///< tokens actually prefilled (less on a prefix-cache hit)
  double first_token_s = 0.0;
  double finish_s = 0.0;
  double version_token_sum = 0.0; ///< Σ over generated tokens of the weight version that made them
  int preemptions = 0;
};

/// What arrives in an instance's mailbox: a request, or a control signal from the orchestrator.
struct InstanceMessage {
  enum class Kind { request, update_weights, stop };
  Kind kind = Kind::request;
  LlmRequest* request = nullptr;
  int weight_version = 0;      ///< update_weights: the new version
  double pause_s = 0.0;        ///< update_weights: time the instance stops to swap weights in
};

}  // namespace rlsim
