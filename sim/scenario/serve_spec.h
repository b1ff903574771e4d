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
  int line = 0;  ///< its line in the CSV, for errors about the request
};

/// How requests arrive.
enum class ArrivalMode { closed_loop, poisson, trace };

/// How many requests one run may hold in flight (sent, not finished). SimGrid shares each link among
/// the transfers crossing it (max-min fairness), so every arrival and completion costs in proportion
/// to the transfers in flight: a run's time grows with their square. Measured on this machine:
/// - a closed loop (all its clients start at once): 30,000 in 14 s and 60,000 in 53 s
///   (trtllm-llama31-8b-h200.yaml, 128/128 tokens), so `concurrency` is read up to 50,000, wide
///   enough for offline throughput benchmarks that queue every request at once;
/// - arrivals spread in time (Poisson or a trace), each re-sharing the links: a burst of 4,000 in
///   3 s and one of 12,000 in 63 s (serve-llama3-70b.yaml), so arrivals that pile up past 4,096 in
///   flight stop the run with an input error: the deployment is overloaded, and its latency would
///   be only the queue. Serving benchmarks of real engines run up to about a thousand at once.
constexpr int kMaxConcurrency = 50'000;
constexpr int kMaxArrivalsInFlight = 4'096;

struct ServeWorkloadSpec {
  int requests = 0;  ///< required with concurrency or rate; with a trace, its rows by default
  ArrivalMode arrivals = ArrivalMode::closed_loop;
  int concurrency = 0;      ///< closed loop: clients, each sending its next request when one finishes
  double rate_per_s = 0.0;  ///< open loop: mean Poisson arrivals per second
  std::string trace_file;   ///< replay: the CSV (relative to the scenario file)
  std::string trace_path;   ///< replay: the CSV as read, for errors naming its lines
  std::vector<TracedRequest> trace;
  Distribution prompt_tokens = fixed_distribution(512);  ///< per request (not with a trace)
  Distribution output_tokens = fixed_distribution(256);  ///< per request (not with a trace)
  /// The first tokens of every prompt that are one of `shared_prefix_groups` system prompts (request
  /// k has prompt k mod groups): with the deployment's prefix cache, a replica that holds that
  /// prompt's KV prefills only the rest. At most a request's prompt less one token.
  int shared_prefix_tokens = 0;
  int shared_prefix_groups = 1;
  /// Distinct prompts the requests draw theirs from, uniformly with replacement, as a benchmark
  /// client reuses its dataset entries (aiperf's --num-dataset-entries); 0: every prompt new. A
  /// prompt drawn again is the same tokens (its length fixed at its first draw), served from the
  /// prefix cache while a replica holds it. Not with a trace or a shared prefix.
  int prompt_pool = 0;
  /// Requests (in send order) left out of the steady-state figures. Absent: the closed loop's
  /// `concurrency` (the burst sent into the empty deployment at time 0) when more requests follow
  /// it; none when every request is in that burst (an offline batch: there is no steady state to
  /// isolate, and offline benchmarks count the whole run), none for open loop or trace.
  std::optional<int> warmup_requests;
  /// What each request's client waits for beyond the engine: its API server, HTTP and streaming
  /// (EngineOverhead::api_server_s, the engine preset's by default; 0 for in-process benchmarks), s.
  double api_server_s = 0.0;
  std::optional<double> slo_ttft_s;  ///< goodput: a request meets the SLO when within both set
  std::optional<double> slo_tpot_s;
  SourceLocation arrivals_where;  ///< of `concurrency`, `rate` or `trace`, for overload errors

  /// A closed loop narrower than its requests: a first burst, then clients that send again as theirs
  /// finish (an offline batch, every request in the first burst, sends everything at once).
  bool sends_in_loop() const { return arrivals == ArrivalMode::closed_loop && concurrency < requests; }
  int warmup() const { return warmup_requests.value_or(sends_in_loop() ? concurrency : 0); }
};

/// `deployment` is a Scenario whose `rollout` is the `serve:` section (and whose training pool is
/// the serving pool, unused): the engine's RolloutService serves it unchanged.
struct ServeScenario {
  Scenario deployment;
  ServeWorkloadSpec workload;
};

}  // namespace rlsim
