// RunMetrics: the figures of docs/design.md §4–5 derived from a finished Timeline, and the advisor's
// recommendation (the 30% rule: if waiting is more than 30% of GPU time, label scheduling pays;
// otherwise pipeline overlap comes first), never a remedy the policy already applies.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/cost/profile.h"
#include "models/cost/tallied_cost_model.h"
#include "sim/engine/faults/fault_metrics.h"
#include "sim/engine/instance_load.h"
#include "sim/engine/steady_state.h"
#include "sim/platform/timeline.h"

namespace rlsim {

struct Percentiles {
  double p50 = 0.0;
  double p90 = 0.0;
  double p99 = 0.0;
  double mean = 0.0;
  double max = 0.0;
  long samples = 0;  ///< values behind the figures
};

/// Samples a nearest-rank p99 needs to differ from the maximum.
constexpr long kSamplesForP99 = 100;

struct PoolMetrics {
  int gpus = 0;
  double busy_fraction = 0.0;
  double wait_fraction = 0.0;
  std::map<GpuState, double> seconds_by_state;  ///< GPU-seconds of the pool's GPUs in each state
};

struct Advice {
  double wait_fraction = 0.0;
  /// "label_scheduling" | "pipeline_overlap" | "none", or "reduce_<cause>" when the policy already
  /// applies the remedy the wait calls for and the largest wait cause is what is left.
  std::string recommendation;
  std::string reason;
};

struct RunMetrics {
  std::string policy;
  uint64_t seed = 0;
  int steps = 0;
  double sim_time_s = 0.0;
  Percentiles step_time_s;
  std::vector<StepRecord> per_step;  ///< as the policy recorded them, by step
  /// The steady steps (warm-up and drain left out, sim/engine/steady_state.h). Every figure below
  /// but `sim_time_s`, `step_time_s`, `per_step`, the engine's counts, `faults` and `agent_waits_llm`
  /// is computed over this window only.
  SteadyWindow steady;
  MeanInterval steady_step_time;  ///< seconds: mean over the steady steps, with its 95 % interval
  double samples_per_s = 0.0;
  double tokens_per_s = 0.0;
  /// The steady steps' samples whose last reply was cut at the length cap or the context limit, over
  /// all of them (verl's response_length/clip_ratio).
  double truncated_fraction = 0.0;
  double bubble_fraction = 0.0;
  std::map<WaitCause, double> bubble_by_cause;  ///< cause -> fraction of all GPU-seconds
  std::map<GpuState, double> gpu_seconds_by_state;
  double gpu_utilization = 0.0;
  std::map<std::string, PoolMetrics> pools;
  Percentiles ttft_s;
  Percentiles tpot_s;
  double usd_per_step = 0.0;
  double usd_per_1m_tokens = 0.0;
  Advice advice;
  double agent_waits_llm = 0.0;  ///< share of agents' time spent waiting on LLM replies (vs in tools)
  double staleness_mean = 0.0;   ///< mean weight-version lag of trained tokens
  std::map<std::string, double> phase_mean_s;  ///< rollout, train, weight_sync, switch: mean per step
  /// The engine's work (simulator cost): execs started (finished or cancelled), sleeps and timed
  /// waits (sim/engine/timed_work.h), messages sent, and actors created (SimGrid's cost per activity
  /// grows with the actors alive).
  long simgrid_execs = 0;
  long simgrid_sleeps = 0;
  long simgrid_messages = 0;
  long simgrid_actors = 0;
  /// The cost model that priced the run's ops and, per op class, what answered them: a calibrated
  /// profile's measured table, interpolation or fitted model, or the datasheet roofline.
  std::string cost_model;
  PriceTally prices;
  /// The calibrated RL run terms the run used (RlRunTerms), if any.
  std::optional<RlRunTerms> rl_run;
  long simgrid_activities() const { return simgrid_execs + simgrid_sleeps + simgrid_messages; }
  FaultMetrics faults;  ///< blast radius of the scenario's failures
  /// Tokens the trainer trained on in the steady steps (the model FLOPs of the MFU follow from them).
  double trained_tokens = 0.0;
  /// The trainer's slowest DP rank over its mean rank (training passes), mean over the steady steps.
  double rank_imbalance = 0.0;
  /// The rollout instances' decode batch occupancy and KV use while generating (instance_load.h).
  LoadFigures rollout_load;
};

/// Percentiles by the nearest-rank method over `values` (any order); zeros when empty.
Percentiles percentiles(std::vector<double> values);

/// `labels_apply`: whether label scheduling could run this scenario (it cannot take AFD or
/// pipelined rollout).
RunMetrics compute_metrics(const Timeline& timeline, const std::string& policy, uint64_t seed,
                           bool labels_apply);

/// The 30% rule applied to a wait fraction and the policy that produced it; where label scheduling
/// cannot run the scenario, overlap is recommended in its place, saying why. A remedy the policy
/// already applies (labels: label scheduling and overlap; overlap, streaming: overlap) is never
/// recommended: the largest cause of `by_cause` is named instead, with what addresses it.
Advice advise(double wait_fraction, const std::string& policy, bool labels_apply,
              const std::map<WaitCause, double>& by_cause = {});

/// The remedies (advice recommendations) `policy` applies by construction.
std::vector<std::string> remedies_applied(const std::string& policy);

}  // namespace rlsim
