// Latency percentiles, throughput, goodput and time-weighted load of a serving benchmark.
#include "sim/engine/serving/serving_metrics.h"

#include <algorithm>

#include "sim/engine/instance_load.h"

namespace rlsim {

bool enough_for_quantile(double q, long samples) {
  return static_cast<double>(samples) * (1.0 - q) >= 1.0 - 1e-9;
}

/// Sends this close are one instant for an engine whose iterations take milliseconds: replies that
/// left an instance in one iteration reach their clients microseconds apart, one after another on
/// the link.
constexpr double kSameInstantS = 1e-3;

double share_sent_together(std::vector<double> sent_s) {
  if (sent_s.empty()) return 0.0;
  std::sort(sent_s.begin(), sent_s.end());
  size_t together = 0;
  for (size_t i = 0; i < sent_s.size(); ++i) {
    const bool as_previous = i > 0 && sent_s[i] - sent_s[i - 1] <= kSameInstantS;
    const bool as_next = i + 1 < sent_s.size() && sent_s[i + 1] - sent_s[i] <= kSameInstantS;
    together += as_previous || as_next ? 1 : 0;
  }
  return static_cast<double>(together) / static_cast<double>(sent_s.size());
}

RequestLatency latency_of(const LlmRequest& r) {
  RequestLatency latency;
  latency.queue_s = r.prefill_start_s - r.submit_s;
  latency.ttft_s = r.first_token_s + r.api_server_s - r.submit_s;
  latency.e2e_s = r.finish_s + r.api_server_s - r.submit_s;
  if (r.output_tokens >= 2.0) latency.tpot_s = (latency.e2e_s - latency.ttft_s) / (r.output_tokens - 1.0);
  return latency;
}

ServingMetrics serving_metrics(const std::vector<LlmRequest>& requests, int warmup, const ServingSlo& slo,
                               const std::vector<std::vector<LoadSample>>& load, int max_batch,
                               double kv_capacity_tokens) {
  ServingMetrics m;
  m.requests = static_cast<int>(requests.size());
  m.warmup_excluded = std::clamp(warmup, 0, m.requests);
  m.measured = m.requests - m.warmup_excluded;
  if (m.measured == 0) return m;
  std::vector<double> queue, ttft, tpot, e2e, sent;
  double from = requests[static_cast<size_t>(m.warmup_excluded)].submit_s, to = from;
  double output_tokens = 0.0;
  int good = 0, cached = 0;
  for (size_t i = static_cast<size_t>(m.warmup_excluded); i < requests.size(); ++i) {
    const LlmRequest& r = requests[i];
    from = std::min(from, r.submit_s);
    to = std::max(to, r.finish_s + r.api_server_s);
    output_tokens += r.output_tokens;
    sent.push_back(r.submit_s);
    if (r.prefilled_tokens < r.context_tokens + r.new_tokens) ++cached;
    if (r.preemptions > 0) ++m.preempted;
    const RequestLatency latency = latency_of(r);
    queue.push_back(latency.queue_s);
    ttft.push_back(latency.ttft_s);
    e2e.push_back(latency.e2e_s);
    const std::optional<double> request_tpot = latency.tpot_s;
    if (request_tpot) tpot.push_back(*request_tpot);
    const bool ttft_ok = !slo.ttft_s || ttft.back() <= *slo.ttft_s;
    const bool tpot_ok = !slo.tpot_s || !request_tpot || *request_tpot <= *slo.tpot_s;
    if (ttft_ok && tpot_ok) ++good;
  }
  m.tpot_samples = static_cast<int>(tpot.size());
  m.queue_s = percentiles(queue);
  m.ttft_s = percentiles(ttft);
  m.tpot_s = percentiles(tpot);
  m.e2e_s = percentiles(e2e);
  m.window_s = to - from;
  m.sent_together_fraction = share_sent_together(std::move(sent));
  m.goodput_fraction = static_cast<double>(good) / static_cast<double>(m.measured);
  m.prefix_cached_fraction = static_cast<double>(cached) / static_cast<double>(m.measured);
  if (m.window_s > 0.0) {
    m.requests_per_s = m.measured / m.window_s;
    m.output_tokens_per_s = output_tokens / m.window_s;
    m.goodput_requests_per_s = good / m.window_s;
  }
  if (!load.empty()) {
    double occupancy = 0.0, kv = 0.0;
    // Time-weighted over the window (sim/engine/instance_load.h, as RL rollout reports them).
    const auto time_mean = [&](const std::vector<LoadSample>& instance, double (*value)(const LoadSample&)) {
      return to > from ? load_integral(instance, from, to, value) / (to - from) : 0.0;
    };
    for (const auto& instance : load) {
      occupancy += time_mean(instance, [](const LoadSample& s) { return static_cast<double>(s.running); });
      kv += time_mean(instance, [](const LoadSample& s) { return s.kv_tokens; });
      m.kv_use_max = std::max(m.kv_use_max, peak_kv_use(instance, from, to, kv_capacity_tokens));
    }
    const auto instances = static_cast<double>(load.size());
    m.batch_occupancy = occupancy / instances / max_batch;
    m.kv_use_mean = kv / instances / kv_capacity_tokens;
  }
  return m;
}

}  // namespace rlsim
