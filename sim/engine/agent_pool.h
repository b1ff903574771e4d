// AgentPool: the agents on the agent hosts, one per trajectory in flight, run by one actor per
// agent host (AgentHost, agent_host.h). An agent runs its trajectory's turns (an LLM call, then a
// tool on one of its host's cores) and reports the trajectory finished. A trajectory runs on agent
// host `id mod hosts`. How a call reaches the LLM is the rollout service's business: the pool is
// given a function that sends it (through the data plane or straight to an instance), and the reply
// comes to its host's inbox, `agents-<host>`.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <simgrid/s4u.hpp>
#include <vector>

#include "sim/engine/agent_host.h"
#include "sim/engine/request.h"
#include "sim/engine/rollout_monitor.h"
#include "sim/engine/trajectory_result.h"
#include "sim/engine/workload.h"

namespace rlsim {

class AgentPool {
 public:
  using SendCall = AgentHost::SendCall;

  AgentPool(const std::vector<simgrid::s4u::Host*>& hosts, RolloutMonitor& monitor, SendCall send_call);

  /// Starts `trajectory` (tagged with `step`) on its agent host; returns at once.
  void launch(const Trajectory& trajectory, int step);
  /// Blocks until some launched trajectory finishes and returns it.
  TrajectoryResult wait_finished();
  /// Each host's actor ends once its trajectories in hand have finished.
  void stop();
  /// Blocks until every host's actor has ended (after stop()).
  void join();
  double llm_wait_s() const { return llm_wait_s_; }
  double tool_s() const { return tool_s_; }

 private:
  void finish(TrajectoryResult&& result);

  const std::vector<simgrid::s4u::Host*>& hosts_;
  RolloutMonitor& monitor_;
  SendCall send_call_;
  AgentHost::Finished finished_callback_;
  std::vector<std::unique_ptr<AgentHost>> agent_hosts_;  ///< by agent host, made at its first trajectory
  simgrid::s4u::Mailbox* finished_;
  double llm_wait_s_ = 0.0;
  double tool_s_ = 0.0;
};

}  // namespace rlsim
