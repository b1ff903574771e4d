// ServingMetrics: the figures a serving benchmark reports, from the requests as they came back and
// the instances' load over time. Per request (seconds): queue = first prefill start − send, TTFT =
// first token − send, e2e = last token − send, TPOT = (e2e − TTFT) / (output tokens − 1) (requests
// of one output token have none); tokens count when the client sees them, the request's API server
// time (LlmRequest::api_server_s) after the engine made them. Steady state leaves out the first
// `warmup` requests in send order; throughput is over the window from the first measured request's
// send to the last measured request's last token. Occupancy and KV use are time-weighted over that
// window.
#pragma once

#include <optional>
#include <vector>

#include "sim/engine/inference_instance.h"
#include "sim/engine/metrics.h"
#include "sim/engine/request.h"

namespace rlsim {

/// Goodput's service-level objectives; an unset one is met by every request.
struct ServingSlo {
  std::optional<double> ttft_s;
  std::optional<double> tpot_s;
  bool any() const { return ttft_s || tpot_s; }
};

struct ServingMetrics {
  int requests = 0;         ///< all requests served
  int warmup_excluded = 0;  ///< left out of the steady-state figures
  int measured = 0;         ///< requests - warmup_excluded
  int tpot_samples = 0;     ///< measured requests with at least two output tokens
  Percentiles queue_s, ttft_s, tpot_s, e2e_s;
  double window_s = 0.0;
  double requests_per_s = 0.0;
  double output_tokens_per_s = 0.0;
  double goodput_fraction = 0.0;  ///< measured requests meeting every SLO set (1 when none is)
  double goodput_requests_per_s = 0.0;
  double batch_occupancy = 0.0;  ///< mean running sequences / max_batch, averaged over instances
  double kv_use_mean = 0.0;      ///< KV slots held / capacity: time-weighted mean over instances
  double kv_use_max = 0.0;       ///< the highest of any instance at any iteration boundary
  /// Measured requests sent at the same instant (within 1 ms) as another measured one: closed-loop
  /// clients whose requests finished together send again together, and their prompts reach the
  /// engine as one wave (identical requests stay in this lock-step). 1 for an offline batch.
  double sent_together_fraction = 0.0;
  /// Measured requests that prefilled fewer tokens than their prompt: the rest was in the prefix
  /// cache (a shared start, or a prompt from a pool served before).
  double prefix_cached_fraction = 0.0;
  int preempted = 0;  ///< measured requests preempted at least once (their KV taken back)
};

/// One request's latencies (seconds), as defined above; no TPOT with one output token.
struct RequestLatency {
  double queue_s = 0.0;
  double ttft_s = 0.0;
  double e2e_s = 0.0;
  std::optional<double> tpot_s;
};
RequestLatency latency_of(const LlmRequest& request);
/// The share of send times `sent_s` within a millisecond of at least one other (one instant
/// for an engine).
double share_sent_together(std::vector<double> sent_s);

/// `requests` in send order (as their replies came back); `load` per instance.
ServingMetrics serving_metrics(const std::vector<LlmRequest>& requests, int warmup, const ServingSlo& slo,
                               const std::vector<std::vector<LoadSample>>& load, int max_batch,
                               double kv_capacity_tokens);

/// Whether `samples` values are enough to report quantile `q`: at least one lies above it
/// (p50 from 2 samples, p90 from 10, p99 from 100).
bool enough_for_quantile(double q, long samples);

}  // namespace rlsim
