// AgentPool: the agent actors on the agent hosts, one per trajectory in flight. An agent runs its
// trajectory's turns (an LLM call, then a tool on one of its host's cores) and reports the
// trajectory finished; then it waits on its host for the next one instead of ending, so steps reuse
// agents. How a call reaches the LLM is the rollout service's business: the pool is given a
// function that sends it (through the data plane or straight to an instance), and each agent
// waits for the reply on its own mailbox, `agent-<slot>`.
#pragma once

#include <cstdint>
#include <functional>
#include <simgrid/s4u.hpp>
#include <vector>

#include "sim/engine/request.h"
#include "sim/engine/rollout_monitor.h"
#include "sim/engine/workload.h"

namespace rlsim {

/// A finished trajectory as the trainer sees it.
struct TrajectoryResult {
  int id = 0;
  int step = 0;
  double generated_tokens = 0.0;
  double total_tokens = 0.0;       ///< prompt + observations + outputs (the training sequence)
  double version_token_sum = 0.0;  ///< Σ over generated tokens of the weight version that made them
  double finish_s = 0.0;
  double llm_wait_s = 0.0;  ///< agent time waiting on LLM replies
  double tool_s = 0.0;      ///< agent time in tools

  /// Every call as its reply came back (times, tokens, instance).
  std::vector<LlmRequest> calls;
};

class AgentPool {
 public:
  /// Sends an agent's call, `bytes` of new tokens from agent host `agent_host`; returns once it
  /// is on its way. The reply comes to request.agent_inbox.
  using SendCall = std::function<void(LlmRequest& request, size_t agent_host, uint64_t bytes)>;

  AgentPool(const std::vector<simgrid::s4u::Host*>& hosts, RolloutMonitor& monitor, SendCall send_call);

  /// Hands `trajectory` (tagged with `step`) to an idle agent on its host, or a new one; returns at once.
  void launch(const Trajectory& trajectory, int step);
  /// Blocks until some launched trajectory finishes and returns it.
  TrajectoryResult wait_finished();
  /// Agents still busy end after their trajectory; idle ones end now.
  void stop();
  double llm_wait_s() const { return llm_wait_s_; }
  double tool_s() const { return tool_s_; }

 private:
  struct Job {
    Trajectory trajectory;
    int step = 0;
  };
  struct Slot {
    simgrid::s4u::SemaphorePtr wake;  ///< released when `job` is set (no simulated time passes)
    Job* job = nullptr;
  };
  /// Actor body of one agent: runs the trajectories it is handed, one at a time, until stopped.
  void agent_loop(int slot, size_t host_index, Job* first);
  void run_agent(const Trajectory& trajectory, int step, int slot);

  const std::vector<simgrid::s4u::Host*>& hosts_;
  RolloutMonitor& monitor_;
  SendCall send_call_;
  std::vector<simgrid::s4u::SemaphorePtr> tool_cores_;  ///< one per agent host
  std::vector<Slot> agents_;                            ///< every agent created, by slot
  std::vector<std::vector<int>> idle_agents_;           ///< per agent host: agents waiting for a trajectory
  bool stopping_ = false;
  Job stop_job_;  ///< tells an idle agent to end
  simgrid::s4u::Mailbox* finished_;
  double llm_wait_s_ = 0.0;
  double tool_s_ = 0.0;
};

}  // namespace rlsim
