// Sampling distributions and trajectories.
#include "sim/engine/workload.h"

#include <algorithm>
#include <cmath>

namespace rlsim {

double Trajectory::generated_tokens() const {
  double total = 0.0;
  for (const auto& call : calls) total += call.output_tokens;
  return total;
}

double sample(const Distribution& d, std::mt19937_64& rng) {
  double value = 0.0;
  switch (d.kind) {
    case Distribution::Kind::fixed: value = d.value; break;
    case Distribution::Kind::uniform:
      value = std::uniform_real_distribution<double>(d.low, d.high)(rng);
      break;
    case Distribution::Kind::normal: value = std::normal_distribution<double>(d.mean, d.spread)(rng); break;
    case Distribution::Kind::lognormal: {
      // `mean` is the distribution's own mean: mu = ln(mean) - sigma^2 / 2.
      const double mu = std::log(d.mean) - d.spread * d.spread / 2.0;
      value = std::lognormal_distribution<double>(mu, d.spread)(rng);
      break;
    }
    case Distribution::Kind::empirical: {
      std::vector<double> weights;
      for (const auto& bin : d.bins) weights.push_back(bin.second);
      std::discrete_distribution<size_t> pick(weights.begin(), weights.end());
      value = d.bins[pick(rng)].first;
      break;
    }
  }
  if (value < d.min) value = d.min;
  if (d.max > 0.0 && value > d.max) value = d.max;
  if (d.limit > 0.0 && value > d.limit) value = d.limit;
  return value;
}

double drawn_mean(const Distribution& d, int draws) {
  std::mt19937_64 rng(0x5eed);
  double sum = 0.0;
  for (int i = 0; i < draws; ++i) sum += sample(d, rng);
  return sum / draws;
}

namespace {

Distribution stretched(Distribution d, double factor) {
  d.value *= factor;
  d.low *= factor;
  d.high *= factor;
  d.mean *= factor;
  if (d.kind == Distribution::Kind::normal) d.spread *= factor;
  for (auto& bin : d.bins) bin.first *= factor;
  return d;
}

}  // namespace

std::optional<Distribution> scaled_to_mean(const Distribution& d, double mean) {
  if (!(mean > 0.0)) return std::nullopt;
  // The drawn mean grows with the factor (every draw does, caps keep it monotone): bracket, bisect.
  double low = 0.0, high = 1.0;
  for (int i = 0; drawn_mean(stretched(d, high)) < mean; ++i) {
    if (i == 60) return std::nullopt;  // the cap holds the mean below `mean`
    low = high;
    high *= 2.0;
  }
  // Near a factor of 0 every draw sits at the floor: a mean at or below it cannot be reached.
  if (low == 0.0 && d.min >= mean) return std::nullopt;
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (low + high);
    const double drawn = drawn_mean(stretched(d, mid));
    if (std::abs(drawn - mean) <= 1e-4 * mean) return stretched(d, mid);
    (drawn < mean ? low : high) = mid;
  }
  const Distribution found = stretched(d, 0.5 * (low + high));
  if (std::abs(drawn_mean(found) - mean) > 1e-3 * mean) return std::nullopt;  // a jump: capped draws
  return found;
}

namespace {

/// A recorded trajectory's calls, its context growing turn by turn.
std::vector<LlmCall> replayed_calls(const ReplayedTrajectory& recorded) {
  std::vector<LlmCall> calls;
  double context = 0.0;
  for (size_t turn = 0; turn < recorded.turns.size(); ++turn) {
    const ReplayedTurn& r = recorded.turns[turn];
    calls.push_back({r.prompt_tokens, context, r.output_tokens,
                     turn + 1 < recorded.turns.size() ? r.tool_latency_s : 0.0});
    context += r.prompt_tokens + r.output_tokens;
  }
  return calls;
}

}  // namespace

std::vector<Trajectory> sample_step(const WorkloadSpec& workload, std::mt19937_64& rng, int first_id) {
  std::vector<Trajectory> trajectories;
  const int count = workload.trajectories_per_step();
  trajectories.reserve(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) {
    Trajectory t;
    t.id = first_id + i;
    if (!workload.replayed.empty()) {
      t.calls = replayed_calls(workload.replayed[static_cast<size_t>(t.id) % workload.replayed.size()]);
      trajectories.push_back(std::move(t));
      continue;
    }
    const int turns = std::max(1, static_cast<int>(std::lround(sample(workload.turns, rng))));
    double context = 0.0;
    for (int turn = 0; turn < turns; ++turn) {
      LlmCall call;
      call.context_tokens = context;
      call.prompt_tokens = std::round(turn == 0 ? sample(workload.prompt_tokens, rng)
                                                : sample(workload.observation_tokens, rng));
      call.output_tokens = std::max(1.0, std::round(sample(workload.output_tokens, rng)));
      const Distribution& out = workload.output_tokens;
      call.truncated = (out.max > 0.0 && call.output_tokens >= std::round(out.max)) ||
                       (out.limit > 0.0 && call.output_tokens >= std::round(out.limit));
      call.tool_latency_s = turn + 1 < turns ? sample(workload.tool_latency_s, rng) : 0.0;
      // A trajectory that reaches the context limit ends there, its last reply cut at the limit
      // (as an agent framework stops a conversation that no longer fits).
      const double limit = workload.context_limit_tokens();
      const bool full = limit > 0.0 && context + call.prompt_tokens + call.output_tokens >= limit;
      if (full) {
        call.output_tokens = std::floor(limit - context - call.prompt_tokens);
        call.tool_latency_s = 0.0;
        call.truncated = true;
        if (call.output_tokens < 1.0) break;
      }
      context += call.prompt_tokens + call.output_tokens;
      t.calls.push_back(call);
      if (full) break;
    }
    trajectories.push_back(std::move(t));
  }
  return trajectories;
}

}  // namespace rlsim
