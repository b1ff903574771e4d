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
  p.max = values.back();
  p.samples = static_cast<long>(values.size());
  double sum = 0.0;
  for (double v : values) sum += v;
  p.mean = sum / static_cast<double>(values.size());
  return p;
}

std::vector<std::string> remedies_applied(const std::string& policy) {
  if (policy == "labels") return {"label_scheduling", "pipeline_overlap"};
  if (policy == "overlap" || policy == "streaming") return {"pipeline_overlap"};
  return {};
}

namespace {

/// What addresses GPU time lost to `cause`, as a clause.
std::string cause_remedy(WaitCause cause) {
  switch (cause) {
    case WaitCause::train_waits_rollout:
      return "the trainer waits for rollout: give rollout more GPUs, or train on trajectories as they "
             "finish (streaming)";
    case WaitCause::rollout_waits_weights:
      return "rollout waits for new weights: a faster weight sync (weight_sync.method) or a larger "
             "policy.max_staleness";
    case WaitCause::rollout_waits_agents:
      return "instances wait on the agents' tools: more agent cores, or more trajectories in flight";
    case WaitCause::long_tail:
      return "the slowest trajectories hold the step: cap output tokens, or fill the tail with next-step "
             "work (labels.launch: rolling, streaming)";
    case WaitCause::no_work_launched:
      return "the policy launches a step only once the previous one drained: launch a trajectory per "
             "finished one (labels.launch: rolling)";
    case WaitCause::pipeline_bubble:
      return "pipeline stages idle for want of sequences: fewer stages (rollout.pp) or more sequences "
             "per instance";
    case WaitCause::fault: return "GPUs wait out failures: see the faults figures";
    case WaitCause::idle: break;
  }
  return "instances idle";
}

std::string percent(double fraction) {
  return std::to_string(static_cast<int>(std::lround(fraction * 100.0))) + "%";
}

}  // namespace

Advice advise(double wait_fraction, const std::string& policy, bool labels_apply,
              const std::map<WaitCause, double>& by_cause) {
  constexpr double kLabelThreshold = 0.30;
  const std::vector<std::string> applied = remedies_applied(policy);
  auto applies = [&](const char* remedy) {
    return std::find(applied.begin(), applied.end(), remedy) != applied.end();
  };
  Advice a;
  a.wait_fraction = wait_fraction;
  const std::string share = percent(wait_fraction);
  if (wait_fraction > kLabelThreshold && !labels_apply && !applies("pipeline_overlap")) {
    a.recommendation = "pipeline_overlap";
    a.reason = "GPUs wait " + share + " of the time under '" + policy +
               "', above the 30% threshold where label scheduling would pay, but it cannot take this "
               "rollout (AFD instances serve from two pools; pipelined instances may span the nodes it "
               "lends): overlap rollout of step k+1 with training of step k (bounded staleness) first.";
  } else if (wait_fraction > kLabelThreshold && labels_apply && !applies("label_scheduling")) {
    a.recommendation = "label_scheduling";
    a.reason = "GPUs wait " + share + " of the time under '" + policy +
               "', above the 30% threshold: tagging idle GPUs to switch phase (label scheduling with "
               "preemption) recovers more than pipeline overlap alone can.";
  } else if (wait_fraction > 0.05 && !applies("pipeline_overlap")) {
    a.recommendation = "pipeline_overlap";
    a.reason = "GPUs wait " + share + " of the time under '" + policy +
               "', below the 30% threshold: overlap rollout of step k+1 with training of step k (bounded "
               "staleness) first; label scheduling's switch costs are not yet worth paying.";
  } else if (wait_fraction > 0.05) {
    WaitCause top = WaitCause::idle;
    double top_fraction = -1.0;
    for (const auto& [cause, fraction] : by_cause) {
      if (fraction > top_fraction) top = cause, top_fraction = fraction;
    }
    std::string remedies;
    for (const auto& r : applied) remedies += (remedies.empty() ? "" : " and ") + r;
    a.recommendation = "reduce_" + std::string(enum_name(top));
    a.reason = "GPUs wait " + share + " of the time under '" + policy + "', which already applies " +
               remedies + "; the largest cause left is " + std::string(enum_name(top)) + " (" +
               percent(std::max(0.0, top_fraction)) + " of GPU time): " + cause_remedy(top) + ".";
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
  m.per_step = steps;
  m.steady = steady_window(steps);
  const SteadyWindow& w = m.steady;

  std::vector<double> step_times, steady_times;
  double samples = 0.0, tokens = 0.0, truncated = 0.0;
  for (const char* phase : {"rollout", "train", "weight_sync", "switch"}) m.phase_mean_s[phase] = 0.0;
  for (size_t i = 0; i < steps.size(); ++i) {
    const StepRecord& s = steps[i];
    step_times.push_back(s.end_s - s.start_s);
    if (!w.contains_step(i)) continue;
    const double share = 1.0 / w.steps;
    steady_times.push_back(s.end_s - s.start_s);
    samples += s.samples;
    truncated += s.truncated;
    tokens += s.generated_tokens;
    m.phase_mean_s["rollout"] += s.rollout_s * share;
    m.phase_mean_s["train"] += s.train_s * share;
    m.phase_mean_s["weight_sync"] += s.weight_sync_s * share;
    m.phase_mean_s["switch"] += s.switch_s * share;
    m.staleness_mean += s.staleness * share;
  }
  m.step_time_s = percentiles(step_times);
  m.steady_step_time = mean_interval_95(steady_times);
  const double window_s = w.seconds();
  if (samples > 0.0) m.truncated_fraction = truncated / samples;
  if (window_s > 0.0) {
    m.samples_per_s = samples / window_s;
    m.tokens_per_s = tokens / window_s;
  }

  // GPU time inside the window: each interval clipped to it.
  const auto& tracks = timeline.tracks();
  double gpu_seconds = 0.0, usd = 0.0;
  std::map<std::string, double> pool_busy, pool_wait;
  for (const auto& track : tracks) {
    if (!track.is_gpu) continue;
    gpu_seconds += window_s;
    usd += track.usd_per_hour * window_s / 3600.0;
    m.pools[track.group].gpus += 1;
  }
  double busy = 0.0, wait = 0.0;
  for (const auto& interval : timeline.intervals()) {
    const Track& track = tracks[static_cast<size_t>(interval.track)];
    if (!track.is_gpu || !w.overlaps(interval.start_s, interval.end_s)) continue;
    const double d = std::min(interval.end_s, w.end_s) - std::max(interval.start_s, w.start_s);
    m.gpu_seconds_by_state[interval.state] += d;
    m.pools[track.group].seconds_by_state[interval.state] += d;
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
    const double pool_seconds = pool.gpus * window_s;
    if (pool_seconds > 0.0) {
      pool.busy_fraction = pool_busy[name] / pool_seconds;
      pool.wait_fraction = pool_wait[name] / pool_seconds;
    }
  }

  // The calls that finished inside the window.
  std::vector<double> ttft, tpot;
  for (const auto& call : timeline.calls()) {
    if (!w.holds(call.finish_s)) continue;
    ttft.push_back(call.ttft_s);
    tpot.push_back(call.tpot_s);
  }
  m.ttft_s = percentiles(ttft);
  m.tpot_s = percentiles(tpot);

  if (w.steps > 0) m.usd_per_step = usd / w.steps;
  if (tokens > 0.0) m.usd_per_1m_tokens = usd / tokens * 1e6;
  m.advice = advise(m.bubble_fraction, policy, labels_apply, m.bubble_by_cause);
  return m;
}

}  // namespace rlsim
