// ServeScenario: a serving benchmark as plain structs — one inference deployment (the same
// RolloutSpec an RL scenario's rollout uses, read by the same function) and a stream of requests
// against it: a closed loop of `concurrency` clients, open-loop Poisson arrivals at `rate`, or a
// replayed request trace. Defaults are the member initialisers, as in scenario.h.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/scenario/distribution.h"
#include "sim/scenario/scenario.h"

namespace rlsim {

/// One row of a request trace (`arrival_s,prompt_tokens,output_tokens`).
struct TracedRequest {
  double arrival_s = 0.0;
  double prompt_tokens = 0.0;
  double output_tokens = 0.0;
};

/// How requests arrive.
enum class ArrivalMode { closed_loop, poisson, trace };

struct ServeWorkloadSpec {
  int requests = 0;  ///< required with concurrency or rate; with a trace, its rows by default
  ArrivalMode arrivals = ArrivalMode::closed_loop;
  int concurrency = 0;      ///< closed loop: clients, each sending its next request when one finishes
  double rate_per_s = 0.0;  ///< open loop: mean Poisson arrivals per second
  std::string trace_file;   ///< replay: the CSV (relative to the scenario file)
  std::vector<TracedRequest> trace;
  Distribution prompt_tokens = fixed_distribution(512);  ///< per request (not with a trace)
  Distribution output_tokens = fixed_distribution(256);  ///< per request (not with a trace)
  /// Requests (in send order) left out of the steady-state figures. Absent: the closed loop's
  /// `concurrency` (the burst sent into the empty deployment at time 0) when more requests follow
  /// it; none when every request is in that burst (an offline batch: there is no steady state to
  /// isolate, and offline benchmarks count the whole run), none for open loop or trace.
  std::optional<int> warmup_requests;
  std::optional<double> slo_ttft_s;  ///< goodput: a request meets the SLO when within both set
  std::optional<double> slo_tpot_s;

  int warmup() const {
    const bool burst_then_loop = arrivals == ArrivalMode::closed_loop && concurrency < requests;
    return warmup_requests.value_or(burst_then_loop ? concurrency : 0);
  }
};

/// `deployment` is a Scenario whose `rollout` is the `serve:` section (and whose training pool is
/// the serving pool, unused): the engine's RolloutService serves it unchanged.
struct ServeScenario {
  Scenario deployment;
  ServeWorkloadSpec workload;
};

}  // namespace rlsim
