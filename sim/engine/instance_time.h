// InstanceTime: how long an inference instance's work takes, in seconds, every formula written
// once: an iteration (a decode step, a prefill, or both batched as one forward pass) with the
// engine's time beyond kernels (CPU work, launch gaps: models/timing/engine_overhead.h), the
// tensor-parallel all-reduces of a forward pass, the micro-batched rounds of a pipeline-parallel
// replica (models/timing/pipeline_parallel.h), and moving KV between GPU and host memory.
// DecodeStretch is the arithmetic of a decode stretch (several iterations run as one exec) cut
// short by an arriving message. Pure functions of the instance's configuration: no SimGrid, no state.
#pragma once

#include "models/timing/engine_overhead.h"
#include "models/timing/forward_batch_time.h"
#include "sim/engine/instance_config.h"

namespace rlsim {

class InstanceTime {
 public:
  /// Keeps a reference: `config` must outlive this object.
  explicit InstanceTime(const InstanceConfig& config) : config_(config) {}

  /// One decode iteration of `batch` sequences attending to `mean_context` tokens on average.
  double iteration_s(double batch, double mean_context) const;
  /// A prefill of `tokens` new tokens after `context_tokens` already in KV, alone in its iteration.
  double prefill_s(double tokens, double context_tokens) const;
  /// One iteration computing `batch` (decoding sequences and prefill chunks) as one forward pass;
  /// with pipeline parallelism, one round of its micro-batches through the stages; at a calibrated
  /// RL run's pace where the configuration has one.
  double forward_s(const ForwardBatch& batch) const {
    return terms(batch).total_s() / config_.generation_efficiency;
  }
  /// The share of `batch`'s iteration each GPU works; the rest is the pipeline bubble (1 at pp 1).
  double busy_share(const ForwardBatch& batch) const;
  /// The same, split into kernels, all-reduces, stage-to-stage sends, launch gaps and CPU.
  IterationTerms terms(const ForwardBatch& batch) const;
  /// The TP all-reduces of one forward pass over `tokens` tokens (0 without tensor parallelism):
  /// two all-reduces of the hidden state per layer, priced as InstanceConfig::tp_allreduce says
  /// (`cuda_graph`: the iteration replays a captured graph).
  double tp_allreduce_s(double tokens, bool cuda_graph) const;
  /// Moving `kv_tokens` of KV between the group's GPUs and host memory, each GPU its TP slice of its
  /// stage's layers (the largest stage's time)
  /// over its own host link (swap preemption, save_kv, and their restores).
  double kv_swap_s(double kv_tokens) const;

 private:
  /// One forward pass of `batch` through the whole model (every stage, without the sends).
  IterationTerms pass_terms(const ForwardBatch& batch) const;
  IterationShape shape(const ForwardBatch& batch) const;
  /// The engine's terms around `kernels_s` and the TP all-reduces of `allreduce_tokens` tokens.
  IterationTerms with_engine(const ForwardBatch& batch, double kernels_s, double allreduce_tokens) const;

  const InstanceConfig& config_;
};

/// A decode stretch of `iterations` iterations: the context grows one token an iteration, so
/// iteration times grow by a constant step from `first_s` and average `mean_s`.
struct DecodeStretch {
  long iterations = 1;
  double mean_s = 0.0;
  double first_s = 0.0;

  /// Where an interrupted stretch stops: the iterations done once the current one finishes, and
  /// the seconds that takes beyond the interruption.
  struct Progress {
    long iterations = 0;
    double rest_s = 0.0;
  };

  double total_s() const { return static_cast<double>(iterations) * mean_s; }
  /// Seconds to finish the first `done` iterations.
  double time_s(long done) const;
  /// The stretch interrupted `elapsed_s` after it started: exact (it inverts time_s), so
  /// re-planning neither loses nor adds decode time. At least one iteration is done.
  Progress progress(double elapsed_s) const;

 private:
  /// Growth of the iteration time from one iteration to the next.
  double slope_s() const;
};

}  // namespace rlsim
