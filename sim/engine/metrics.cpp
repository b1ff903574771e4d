// Deriving RunMetrics from a Timeline, and the advisor's 30% rule (docs/design.md §1.3).
#include "sim/engine/metrics.h"

#include <algorithm>
#include <cmath>

namespace rlsim {

Percentiles percentiles(std::vector<double> values) {
  Percentiles p;
  if (values.empty()) return p;
  std::sort(values.begin(), values.end());
  auto rank = [&](double q) {
    size_t index = static_cast<size_t>(std::ceil(q * static_cast<double>(values.size())));
    return values[std::clamp<size_t>(index, 1, values.size()) - 1];
  };
  p.p50 = rank(0.50);
  p.p90 = rank(0.90);
  p.p99 = rank(0.99);
  double sum = 0.0;
  for (double v : values) sum += v;
  p.mean = sum / static_cast<double>(values.size());
  return p;
}

Advice advise(double wait_fraction, const std::string& policy, bool labels_apply) {
  constexpr double kLabelThreshold = 0.30;
  Advice a;
  a.wait_fraction = wait_fraction;
  const std::string share = std::to_string(static_cast<int>(std::lround(wait_fraction * 100.0))) + "%";
  if (wait_fraction > kLabelThreshold && !labels_apply) {
    a.recommendation = "pipeline_overlap";
    a.reason = "GPUs wait " + share + " of the time under '" + policy +
               "', above the 30% threshold where label scheduling would pay, but it cannot take AFD rollout "
               "(an attention and an FFN pool serve as one instance): overlap rollout of step k+1 with "
               "training of step k (bounded staleness) first.";
  } else if (wait_fraction > kLabelThreshold) {
    a.recommendation = "label_scheduling";
    a.reason = "GPUs wait " + share + " of the time under '" + policy +
               "', above the 30% threshold: tagging idle GPUs to switch phase (label scheduling with "
               "preemption) recovers more than pipeline overlap alone can.";
  } else if (wait_fraction > 0.05) {
    a.recommendation = "pipeline_overlap";
    a.reason = "GPUs wait " + share + " of the time under '" + policy +
               "', below the 30% threshold: overlap rollout of step k+1 with training of step k (bounded "
               "staleness) first; label scheduling's switch costs are not yet worth paying.";
  } else {
    a.recommendation = "none";
    a.reason =
        "GPUs wait only " + share + " of the time under '" + policy + "': no remedy is worth its cost.";
  }
  return a;
}

RunMetrics compute_metrics(const Timeline& timeline, const std::string& policy, uint64_t seed,
                           bool labels_apply) {
  RunMetrics m;
  m.policy = policy;
  m.seed = seed;
  const auto& steps = timeline.steps();
  m.steps = static_cast<int>(steps.size());
  for (const auto& s : steps) m.sim_time_s = std::max(m.sim_time_s, s.end_s);

  std::vector<double> step_times;
  double samples = 0.0, tokens = 0.0;
  for (const char* phase : {"rollout", "train", "weight_sync", "switch"}) m.phase_mean_s[phase] = 0.0;
  for (const auto& s : steps) {
    step_times.push_back(s.end_s - s.start_s);
    samples += s.samples;
    tokens += s.generated_tokens;
    m.phase_mean_s["rollout"] += s.rollout_s / static_cast<double>(steps.size());
    m.phase_mean_s["train"] += s.train_s / static_cast<double>(steps.size());
    m.phase_mean_s["weight_sync"] += s.weight_sync_s / static_cast<double>(steps.size());
    m.phase_mean_s["switch"] += s.switch_s / static_cast<double>(steps.size());
    m.staleness_mean += s.staleness / static_cast<double>(steps.size());
  }
  m.step_time_s = percentiles(step_times);
  if (m.sim_time_s > 0.0) {
    m.samples_per_s = samples / m.sim_time_s;
    m.tokens_per_s = tokens / m.sim_time_s;
  }

  const auto& tracks = timeline.tracks();
  double gpu_seconds = 0.0, usd = 0.0;
  std::map<std::string, double> pool_busy, pool_wait;
  for (const auto& track : tracks) {
    if (!track.is_gpu) continue;
    gpu_seconds += m.sim_time_s;
    usd += track.usd_per_hour * m.sim_time_s / 3600.0;
    m.pools[track.group].gpus += 1;
  }
  double busy = 0.0, wait = 0.0;
  for (const auto& interval : timeline.intervals()) {
    const Track& track = tracks[static_cast<size_t>(interval.track)];
    if (!track.is_gpu) continue;
    const double d = interval.end_s - interval.start_s;
    m.gpu_seconds_by_state[interval.state] += d;
    if (interval.state.is(StateKind::busy)) {
      busy += d;
      pool_busy[track.group] += d;
    } else if (interval.state.is(StateKind::wait)) {
      wait += d;
      pool_wait[track.group] += d;
      m.bubble_by_cause[interval.state.cause()] += d;
    }
  }
  if (gpu_seconds > 0.0) {
    m.bubble_fraction = wait / gpu_seconds;
    m.gpu_utilization = busy / gpu_seconds;
    for (auto& [cause, seconds] : m.bubble_by_cause) seconds /= gpu_seconds;
  }
  for (auto& [name, pool] : m.pools) {
    const double pool_seconds = pool.gpus * m.sim_time_s;
    if (pool_seconds > 0.0) {
      pool.busy_fraction = pool_busy[name] / pool_seconds;
      pool.wait_fraction = pool_wait[name] / pool_seconds;
    }
  }

  std::vector<double> ttft, tpot;
  for (const auto& call : timeline.calls()) {
    ttft.push_back(call.ttft_s);
    tpot.push_back(call.tpot_s);
  }
  m.ttft_s = percentiles(ttft);
  m.tpot_s = percentiles(tpot);

  if (m.steps > 0) m.usd_per_step = usd / m.steps;
  if (tokens > 0.0) m.usd_per_1m_tokens = usd / tokens * 1e6;
  m.advice = advise(m.bubble_fraction, policy, labels_apply);
  return m;
}

}  // namespace rlsim
