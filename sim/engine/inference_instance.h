// InferenceInstance: the actor of one model replica on a tensor-parallel GPU group, serving LLM
// calls. It takes messages from its mailbox, asks its ReplicaScheduler what each iteration does
// (scheduling/replica_scheduler.h), runs that for the time InstanceTime gives (instance_time.h) and
// hands finished calls back through the links the rollout service gave it. Event per request, not
// per token: a decode stretch is one Exec; an arriving message interrupts it, the iterations done
// are accounted, the current one is finished, and the plan is redone. The control plane (weights,
// preemption, faults, stop) is the state machine of instance_control.h; this actor performs it.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <simgrid/s4u.hpp>
#include <string>
#include <vector>

#include "sim/engine/group_timeline.h"
#include "sim/engine/instance_config.h"
#include "sim/engine/instance_control.h"
#include "sim/engine/instance_load.h"
#include "sim/engine/instance_time.h"
#include "sim/engine/iteration_runner.h"
#include "sim/engine/request.h"
#include "sim/engine/rl_context.h"
#include "sim/engine/scheduling/replica_scheduler.h"
#include "sim/engine/scheduling/replica_state.h"

namespace rlsim {

/// How an instance hands calls back; the rollout service wires them (rollout_service.cpp).
struct InstanceLinks {
  /// A finished call leaves the instance (the router's bookkeeping); called before its reply goes.
  std::function<void(const LlmRequest& call)> on_finish;
  /// Sends a finished call's reply of `bytes` from the instance's actor; returns the send, which
  /// the instance retires (transport/activity_retirement.h).
  std::function<simgrid::s4u::CommPtr(LlmRequest& call, double bytes)> send_reply;
  /// Takes a call the instance gives up (preemption, a fault) or receives while paused, carrying
  /// the tokens it already generated.
  std::function<void(LlmRequest* call)> displace;
  /// The instance took in `count` calls the data plane sent under its window (its flow control).
  std::function<void(size_t count)> taken;
};

class InferenceInstance {
 public:
  InferenceInstance(int index, GpuGroup group, InstanceConfig config, Timeline& timeline,
                    InstanceLinks links);
  InferenceInstance(const InferenceInstance&) = delete;  // time_ and runner_ refer to members
  InferenceInstance& operator=(const InferenceInstance&) = delete;

  simgrid::s4u::Mailbox* mailbox() const { return mailbox_; }
  const GpuGroup& group() const { return group_; }
  const InstanceStats& stats() const { return replica_.stats; }
  int weight_version() const { return version_; }
  const InstanceConfig& config() const { return config_; }
  /// Its load over time, one sample per change (at iteration boundaries).
  const std::vector<LoadSample>& load() const { return load_; }
  /// Current step label used on the timeline (set by the policy).
  void set_step(int step) { gpus_.set_step(step); }

  /// The actor body: serves until a stop message arrives and all work is done.
  void serve();

 private:
  void post_receive();
  /// Handles the message the posted receive got, and posts the next receive.
  void handle_arrival();
  void drain_arrivals();
  void take_call(LlmRequest* call);
  /// Gives `s`'s call to the displace link, carrying the tokens it already generated.
  void displace(const Sequence& s);
  void load_weights(const WeightLoad& load);
  /// Acts on a preempt order: hands on or keeps the sequences, reports, and pauses until resumed.
  void leave_rollout();
  void pause_until_resumed();
  /// A fault: gives up every call with its generated tokens lost, sits out the repair, reloads.
  void fail_and_recover(double repaired_s);
  void wait_idle();
  /// Appends the replica's load now to `load_` when it changed.
  void sample_load();

  /// A call is done: records it, caches its prefix, and sends its reply.
  void complete(Sequence& s);

  int index_;
  GpuGroup group_;
  InstanceConfig config_;
  InstanceTime time_{config_};
  GroupTimeline gpus_;
  InstanceLinks links_;
  simgrid::s4u::Mailbox* mailbox_;
  simgrid::s4u::CommPtr receive_;
  InstanceMessage* arrived_ = nullptr;
  std::deque<simgrid::s4u::CommPtr> replies_;  ///< sent, not yet retired (transport/activity_retirement.h)
  ReplicaState replica_;
  std::unique_ptr<ReplicaScheduler> scheduler_;
  IterationRunner runner_{replica_, time_, gpus_};
  InstanceControl control_;
  int version_ = 0;  ///< weights loaded
  std::vector<LoadSample> load_;
};

}  // namespace rlsim
