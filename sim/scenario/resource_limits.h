// What one scenario may ask the simulator to do, checked after loading and before anything runs:
// products of fields that are each within their own range (prompts × samples, trajectories ×
// turns × steps, nodes × GPUs per node) can still ask for more actors, events and memory than a
// run can have, or overflow the counters that hold them. Memory is estimated from measured costs
// per trajectory in a step, per LLM call and per GPU, against one budget for every machine (the
// same scenario is accepted or refused everywhere). A scenario past a limit is an input error
// (exit 2) at the field to change, saying what it asks for and what the limit is.
#pragma once

#include <cstdint>

#include "sim/scenario/scenario.h"
#include "sim/scenario/yaml_reader.h"

namespace rlsim {

struct ResourceLimits {
  /// GPUs in the whole cluster: each is a SimGrid host with its links and actors. Twice the
  /// 65,536 GPUs the scale benchmark (tools/bench/cluster-scale) targets.
  int64_t gpus = 131'072;
  /// Trajectories of one RL step: each has its agent's state and its own records (16 per GPU at
  /// the limit above, twice the 8 per GPU of the scale benchmark).
  int64_t trajectories_per_step = 2'097'152;
  /// LLM calls a trajectory makes on average (`workload.turns`): agentic runs use tens to hundreds.
  double turns_per_trajectory = 10'000;
  /// LLM calls of the whole run (trajectories × mean turns × steps): each is a request through the
  /// engine and a record in the metrics. One call costs about 50 µs of wall time (the quickstart
  /// at 50 turns: 51,200 calls in 2.7 s), so the limit is a run of about 20 minutes; the
  /// 65,536-GPU scale point makes 2.1 million.
  double llm_calls = 20'000'000;

  /// Memory one run may take, and what its parts cost, measured with jemalloc on the quickstart
  /// and rl-scale shapes (2026-12-02; peak RSS against each count, the others held):
  double memory_bytes = 16.0 * (1ull << 30);
  /// A trajectory's state while the step runs, its one call's records included (80,000 -> 160,000
  /// one-turn trajectories: 239 -> 395 MB, 2026-12-03; 12 KB when each had its own actor).
  double bytes_per_trajectory = 2e3;
  /// What each LLM call leaves behind for the metrics, the trace and the report (5,000 prompts × 8,
  /// 1 -> 3 steps: 437 -> 626 MB for 80,000 more calls).
  double bytes_per_llm_call = 2.5e3;
  /// A GPU's host, links and instance (1,024 -> 8,192 GPUs with 64 trajectories: 57 -> 163 MB).
  double bytes_per_gpu = 15e3;
};

/// Peak memory a run of `scenario` is estimated to take (bytes), from `limits`' costs.
double estimated_memory_bytes(const Scenario& scenario, const ResourceLimits& limits = {});

/// Throws InputError at the field of `workload` or `cluster` (the readers the scenario was read
/// with) whose value takes the scenario past `limits`.
void check_resource_limits(const Scenario& scenario, const YamlReader& workload, const YamlReader& cluster,
                           const ResourceLimits& limits = {});

}  // namespace rlsim
