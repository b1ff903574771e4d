// AfdIterationTable: the decode iteration time of an RL scenario's AFD rollout instances
// (rollout.afd), taken from the layer-level AFD simulation. Simulating every decode stretch layer
// by layer would cost far more than the RL step itself, so the instance is simulated once per
// batch shape of a grid — batch 1, 2, 4, … up to rollout.max_batch, at contexts 128, 1K, 8K and
// 64K tokens — and the engine interpolates linearly between grid points (in batch, then in
// context; beyond 64K it extends the last context segment). Each point runs simulate_afd in a
// child process (SimGrid allows one engine per process), several at once, before the RL engine
// starts. A batch smaller than afd.micro_batches runs with one micro-batch per sequence.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/scenario/afd_spec.h"
#include "sim/scenario/scenario.h"

namespace rlsim {

class AfdIterationTable {
 public:
  /// Simulates the grid for `scenario` (which must have rollout.afd), up to `jobs_at_once` points at
  /// a time. Call before this process creates a SimGrid engine.
  static AfdIterationTable build(const Scenario& scenario, int jobs_at_once);

  /// Seconds of one decode iteration for `batch` sequences of `context` cached tokens on average.
  double seconds(int64_t batch, double context) const;

  const std::vector<int64_t>& batches() const { return batches_; }
  const std::vector<double>& contexts() const { return contexts_; }
  /// Simulated seconds at grid point (batch index, context index).
  double at(size_t b, size_t c) const { return seconds_[b * contexts_.size() + c]; }

 private:
  double at_batch(size_t b, double context) const;

  std::vector<int64_t> batches_;
  std::vector<double> contexts_;
  std::vector<double> seconds_;  ///< [batch][context]
};

/// The AFD scenario of one grid point: the RL scenario's model, cluster and precisions, its
/// rollout.afd deployment, `batch` sequences of `context` tokens.
AfdScenario afd_point_scenario(const Scenario& scenario, int64_t batch, int64_t context);

}  // namespace rlsim
