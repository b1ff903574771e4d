// AgentHost: the agents of one agent host, run by one actor. Each trajectory on the host alternates
// LLM calls and tools: a call is sent through the pool's SendCall and its reply comes to the host's
// inbox, `agents-<host>`; a tool holds one of the host's cores for its latency, and a tool finding
// every core busy waits for one, first come first served. A call made through the engine's API
// server (LlmCall::api_server_s, serving benchmarks) is seen that much after its reply arrives,
// without holding a core. The actor waits for the next reply or the next due time (a tool's end, a
// reply seen), whichever comes first (one SimGrid wait with a timeout).
//
// Why one actor per host and not one per trajectory: SimGrid's cost per activity grows with the
// actors alive (bare SimGrid, this machine: 790k execs/s at 1,154 actors, 146k/s at 8,704), and an
// agent never does anything but wait on its reply or its tool, which one actor can do for all the
// trajectories of its host (docs/performance.md, "Agents as one actor per host").
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <queue>
#include <simgrid/s4u.hpp>
#include <unordered_map>
#include <vector>

#include "sim/engine/request.h"
#include "sim/engine/rollout_monitor.h"
#include "sim/engine/trajectory_result.h"
#include "sim/engine/workload.h"

namespace rlsim {

class AgentHost {
 public:
  /// Sends a call, `bytes` of new tokens from agent host `agent_host`; returns once it is on its way.
  using SendCall = std::function<void(LlmRequest& request, size_t agent_host, uint64_t bytes)>;
  /// Takes a finished trajectory (called on the host's actor, or the launching one).
  using Finished = std::function<void(TrajectoryResult&& result)>;

  /// Starts the host's actor on `host`, the `index`-th agent host.
  AgentHost(simgrid::s4u::Host* host, size_t index, RolloutMonitor& monitor, const SendCall& send_call,
            const Finished& finished);

  /// Starts `trajectory` (tagged with `step`) now: its first call leaves at once. Callable from any actor.
  void launch(const Trajectory& trajectory, int step);
  /// The actor ends once the trajectories in hand have finished.
  void stop();
  simgrid::s4u::ActorPtr actor() const { return actor_; }

 private:
  /// One trajectory in flight: where it is, what it has gathered, and its call on the wire.
  struct Agent {
    Trajectory trajectory;
    size_t turn = 0;  ///< the call in flight, or whose tool runs
    TrajectoryResult result;
    LlmRequest request;  ///< its address travels with the call and comes back with the reply
    double tool_start_s = 0.0;
    double tool_latency_s = 0.0;
  };
  /// Something an agent waits for until a known time: its tool's end, or its reply as the caller
  /// sees it past the API server.
  struct Due {
    enum class Kind { tool_end, reply_seen };
    double at_s;
    uint64_t order;  ///< ties on `at_s` come due in the order they were set
    Agent* agent;
    Kind kind;
    bool operator>(const Due& other) const {
      return at_s != other.at_s ? at_s > other.at_s : order > other.order;
    }
  };

  void run();
  /// Sends the agent's next call, or reports it finished when it has made them all.
  void next_call(Agent& agent);
  void take_reply(LlmRequest* reply);
  /// The reply is in the caller's hands: the agent's tool runs, or its next call leaves.
  void reply_seen(Agent& agent);
  /// Runs the agent's tool on a free core, or queues it for the next one.
  void start_tool(Agent& agent);
  void run_tool(Agent& agent, double now);
  /// The agent's tool is over: its core goes to the first tool waiting for one, its next call leaves.
  void end_tool(Agent& agent, double now);
  /// Handles what is due first and everything else due at the same time.
  void handle_due();

  simgrid::s4u::Host* host_;
  size_t index_;
  RolloutMonitor& monitor_;
  const SendCall& send_call_;
  const Finished& finished_;
  simgrid::s4u::Mailbox* inbox_;
  simgrid::s4u::ActorPtr actor_;
  std::unordered_map<LlmRequest*, Agent*> awaiting_reply_;
  int free_cores_;
  std::deque<Agent*> waiting_for_core_;
  std::priority_queue<Due, std::vector<Due>, std::greater<>> due_;
  uint64_t dues_set_ = 0;
  size_t in_hand_ = 0;  ///< trajectories launched and not finished
  bool stopping_ = false;
  LlmRequest stop_signal_;  ///< sent to the inbox by stop() to wake the actor
};

}  // namespace rlsim
