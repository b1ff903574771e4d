// RlContext: what an orchestration policy works with during one simulation — the scenario, the
// SimGrid platform, the rollout instances and trainer GPUs as timeline tracks, the seeded random
// engine, and the timeline it records into. Built by simulate(); policies only read the layout.
#pragma once

#include <functional>
#include <map>
#include <random>
#include <simgrid/s4u.hpp>
#include <vector>

#include "models/cost/cost_model.h"
#include "models/cost/profile.h"
#include "sim/afd/afd_iteration_table.h"
#include "sim/engine/faults/fault_state.h"
#include "sim/engine/instance_load.h"
#include "sim/engine/ledger.h"
#include "sim/engine/rollout_monitor.h"
#include "sim/platform/platform.h"
#include "sim/platform/timeline.h"
#include "sim/scenario/scenario.h"

namespace rlsim {

/// A group of GPUs running one model replica (tensor parallel); the first host leads.
struct GpuGroup {
  std::vector<simgrid::s4u::Host*> hosts;
  std::vector<int> tracks;         ///< timeline track per GPU, same order as hosts
  const PoolSpec* pool = nullptr;  ///< the pool the GPUs belong to; null = rollout.pool

  simgrid::s4u::Host* leader() const { return hosts.front(); }
  /// Starts `seconds` of work that every GPU of the group does in lockstep (data-parallel replicas,
  /// a phase switch on each): one exec, on the leader; the caller records the members busy with
  /// it. One exec per member gave the same times (byte-identical traces on every bundled scenario)
  /// at one activity per GPU per phase.
  simgrid::s4u::ExecPtr start_lockstep(double seconds) const {
    simgrid::s4u::ExecPtr exec = simgrid::s4u::this_actor::exec_init(seconds);
    exec->set_host(leader());
    exec->start();
    return exec;
  }
};

struct RlContext {
  const Scenario& scenario;
  const Platform& platform;
  Timeline& timeline;
  const CostModel& cost;
  RolloutMonitor& monitor;
  std::mt19937_64 rng;
  std::vector<GpuGroup> rollout_instances;       ///< TP groups of the rollout pool
  GpuGroup trainer;                              ///< every GPU of the training pool
  std::vector<GpuGroup> pools{};                 ///< every GPU of each cluster pool, in scenario order
  const FaultState* faults = nullptr;            ///< the run's failures (none when null)
  const AfdIterationTable* afd_table = nullptr;  ///< AFD rollout instances' decode times (rollout.afd)
  int next_trajectory = 0;                       ///< id of the next trajectory to sample
  /// Filled by the policy for the metrics: agents' waiting on the LLM and in tools.
  double agent_llm_wait_s = 0.0;
  double agent_tool_s = 0.0;
  /// Filled when the rollout service stops: every call the data plane recorded.
  std::vector<LedgerEntry> ledger{};
  /// Filled when the rollout service stops: each instance's load over time, for the metrics.
  std::vector<InstanceLoad> instance_load{};
  /// Filled by the trainer, by step: tokens trained on (each optimizer pass over a batch counts its
  /// tokens once, a step redone after a fault again), for the model FLOPs of the MFU.
  std::map<int, double> trained_tokens_by_step{};
  /// Filled by the trainer, by step: its slowest DP rank's training passes over the mean rank's.
  std::map<int, double> rank_imbalance_by_step{};
  /// The scenario's calibrated profile, read before the engine starts (null without one).
  const HardwareProfile* profile = nullptr;
  /// A whole RL run's terms (RlRunTerms): SimulationOptions::rl_run, else the profile's; null
  /// without. They apply to the pools of their card only (rl_run_on).
  const RlRunTerms* rl_run = nullptr;
  /// The RL run terms for `card`'s pools, or null.
  const RlRunTerms* rl_run_on(const std::string& card) const {
    return rl_run && rl_run->card == card ? rl_run : nullptr;
  }
  /// SimulationOptions::on_step, called by record_step (rl_step.h).
  std::function<void(int steps_done, int steps_total)> on_step{};

  /// Records `state` on every GPU of `group` over [start, end).
  void record(const GpuGroup& group, GpuState state, double start_s, double end_s, int step) const {
    for (int track : group.tracks) timeline.record(track, state, start_s, end_s, step);
  }
};

}  // namespace rlsim
