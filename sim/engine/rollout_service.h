// RolloutService: everything that turns trajectories into generated tokens: the inference
// instances of the rollout GPUs, the router, the trajectory manager (data plane) and the agents
// (AgentPool, agent_pool.h). It wires them: how an agent's call reaches an instance and how an
// instance's reply gets back. Policies launch trajectories, collect finished ones, broadcast weight
// updates, preempt and resume instances and stop the service; they never touch instances directly.
#pragma once

#include <deque>
#include <memory>
#include <set>
#include <simgrid/s4u.hpp>
#include <vector>

#include "models/cost/cost_model.h"
#include "sim/engine/agent_pool.h"
#include "sim/engine/inference_instance.h"
#include "sim/engine/rl_context.h"
#include "sim/engine/rollout_monitor.h"
#include "sim/engine/routers/router.h"
#include "sim/engine/trajectory_manager.h"
#include "sim/engine/transport/call_batcher.h"
#include "sim/engine/transport/send_queue.h"
#include "sim/engine/workload.h"

namespace rlsim {

class RolloutService {
 public:
  RolloutService(RlContext& context, const CostModel& cost, std::vector<GpuGroup> instances,
                 RolloutMonitor& monitor);

  /// Spawns the instance and data-plane actors. Call from inside the simulation.
  void start();
  /// Starts `trajectory` (tagged with `step`) on its agent host; returns at once.
  void launch(const Trajectory& trajectory, int step) { agents_.launch(trajectory, step); }
  /// Blocks until some launched trajectory finishes and returns it.
  TrajectoryResult wait_finished() { return agents_.wait_finished(); }
  /// Sends a weight update to every instance; each pauses `pause_s` at its next iteration boundary.
  void update_weights(int version, double pause_s);
  /// The same for the instances at `indices` only.
  void update_weights(int version, double pause_s, const std::vector<int>& indices);
  /// Takes the instances at `indices` away from rollout (label scheduling): routers stop choosing
  /// them, each handles its in-flight calls as `mode` says, and this call returns once all have
  /// stopped, i.e. their GPUs are free. Returns, per instance, the time it stopped.
  std::vector<double> preempt(const std::vector<int>& indices, Preemption mode);
  /// Returns preempted instances to rollout with weights `version`, each first pausing `pause_s`.
  void resume(const std::vector<int>& indices, int version, double pause_s);
  /// Leader GPU of every instance (weight-sync destinations).
  std::vector<simgrid::s4u::Host*> instance_leaders() const;
  const std::vector<std::unique_ptr<InferenceInstance>>& instances() const { return instances_; }
  const TrajectoryManager* data_plane() const { return data_plane_.get(); }
  /// Labels timeline records of instances and the data plane with `step`.
  void set_step(int step);
  /// Stops every actor once in-flight work is done; blocks until they have stopped.
  void stop();
  double agent_llm_wait_s() const { return agents_.llm_wait_s(); }
  double agent_tool_s() const { return agents_.tool_s(); }

 private:
  /// An agent's call: through the data plane, or routed and sent straight to an instance.
  void send_call(LlmRequest& request, size_t agent_host, uint64_t bytes);
  /// The links instance `i` hands calls back through.
  InstanceLinks links_of(int i);
  /// Sends `message` to instance `i` without waiting (`bytes` on the wire): from the orchestrator's
  /// host through control_sends_, from elsewhere (an instance giving a call up) detached.
  void post(int i, const InstanceMessage& message, uint64_t bytes = 0);
  /// Sends a call that an instance gave up (or got while preempted) to an available instance, or
  /// parks it until one resumes.
  void reroute(LlmRequest* request, int from);
  /// Actor body: tells the instances each fault stops to fail, and routes to them again once
  /// they are repaired and restarted.
  void notify_faults();

  RlContext& context_;
  const CostModel& cost_;
  std::unique_ptr<Router> router_;
  std::vector<std::unique_ptr<InferenceInstance>> instances_;
  std::unique_ptr<TrajectoryManager> data_plane_;
  std::vector<std::unique_ptr<CallBatcher>> call_batchers_;  ///< one per agent host, made by start()
  std::vector<simgrid::s4u::ActorPtr> actors_;
  AgentPool agents_;
  std::vector<LlmRequest*> parked_;  ///< calls waiting for any instance to return to rollout
  /// Weight updates, preemptions and stops leave the orchestrator's host through these, one per
  /// kInstancesPerSendQueue instances (made by start(), closed by stop()). As detached sends, a
  /// broadcast to N instances sat on one SimGrid list walked at each arrival: O(N²) per broadcast,
  /// a third of a 65,536-GPU step (transport/send_queue.h).
  std::vector<std::unique_ptr<SendQueue>> control_sends_;
  bool control_closed_ = false;
  std::set<int> preempted_;  ///< instances taken away from rollout by the policy
};

}  // namespace rlsim
