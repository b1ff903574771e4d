// Workload sampling: the trajectories of one RL step — for each, its LLM calls (prompt and output
// tokens) and tool latencies — drawn from the scenario's distributions with the run's seeded engine.
#pragma once

#include <optional>
#include <random>
#include <vector>

#include "sim/scenario/scenario.h"

namespace rlsim {

struct LlmCall {
  double prompt_tokens = 0.0;   ///< new tokens to prefill for this call (context grows across turns)
  double context_tokens = 0.0;  ///< tokens already in the trajectory before this call
  double output_tokens = 0.0;
  double tool_latency_s = 0.0;  ///< the tool run after this call (0 after the last)
  /// The first tokens of the call's prompt that are a prompt shared by many calls (a system prompt),
  /// cached once per replica as `prefix_group` (sim/engine/scheduling/prefix_cache.h); -1: none.
  double shared_prefix_tokens = 0.0;
  int prefix_group = -1;
  /// The engine's API server and the client, outside the engine (EngineOverhead::api_server_s):
  /// the caller sees the reply this much after the engine sent it. 0: called in-process.
  double api_server_s = 0.0;
  /// Its output was cut: at workload.output_tokens' cap (max_response_length, verl's clip) or at the
  /// context limit. Last, so that the lists that build calls field by field need not name it.
  bool truncated = false;
};

struct Trajectory {
  int id = 0;
  std::vector<LlmCall> calls;
  double generated_tokens() const;
};

/// Draws one value; caps (min/max) applied. Deterministic for a given engine state.
double sample(const Distribution& d, std::mt19937_64& rng);

/// The mean of `draws` draws of `d` (caps applied), from a fixed seed: the same every call.
double drawn_mean(const Distribution& d, int draws = 20000);

/// `d` stretched by one factor (its values, bounds, mean and, for a normal, its spread; a
/// lognormal keeps its sigma) so that its draws, caps (min, max, limit) applied as they stand,
/// average `mean` (drawn_mean, to 1e-4). std::nullopt when no factor reaches it: `mean` at or above
/// the cap, or below the floor.
std::optional<Distribution> scaled_to_mean(const Distribution& d, double mean);

/// The trajectories of one step, in a deterministic order: ids from `first_id`, each drawn from the
/// distributions, or the recorded trajectory `id mod count` when the workload replays recordings.
std::vector<Trajectory> sample_step(const WorkloadSpec& workload, std::mt19937_64& rng, int first_id);

}  // namespace rlsim
