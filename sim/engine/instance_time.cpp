// The instance's time formulas: iterations on the cost model plus the engine's terms, TP
// all-reduces as measured (models/timing/tp_allreduce.h), KV swaps over the host link, and the decode-stretch
// quadratic.
#include "sim/engine/instance_time.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "models/arch_params.h"
#include "models/timing/inference_time.h"
#include "models/timing/pipeline_parallel.h"

namespace rlsim {

double InstanceTime::iteration_s(double batch, double mean_context) const {
  return forward_s(ForwardBatch{static_cast<int64_t>(batch), mean_context, {}});
}

double InstanceTime::prefill_s(double tokens, double context_tokens) const {
  return forward_s(
      ForwardBatch{0, 0.0, {{static_cast<int64_t>(tokens), static_cast<int64_t>(context_tokens)}}});
}

IterationTerms InstanceTime::terms(const ForwardBatch& batch) const {
  if (config_.pp == 1) return pass_terms(batch);
  // Pipeline parallelism: a round lasts the heaviest micro-batch's trip through every stage.
  const ForwardBatch micro = heaviest_micro_batch(batch, config_.pp);
  IterationTerms t = pass_terms(micro);
  const double sends_s = pipeline_sends_seconds(*config_.model, static_cast<double>(micro.tokens()),
                                                config_.pp, config_.stage_link);
  // The pipeline's own time: the sends, and what the pace of the largest stage or the CPU adds.
  t.pipeline_s = round_seconds(t, sends_s, batch, config_.model->layers, config_.pp) - t.total_s();
  return t;
}

double InstanceTime::busy_share(const ForwardBatch& batch) const {
  return stage_busy_share(batch, config_.pp);
}

IterationTerms InstanceTime::pass_terms(const ForwardBatch& batch) const {
  if (!batch.has_prefill() && config_.decode_cost) {
    // The hot path: decode-only iterations from the memoised table.
    return with_engine(batch, config_.decode_cost->seconds(batch.decode_sequences, batch.decode_mean_context),
                       static_cast<double>(batch.tokens()));
  }
  if (config_.afd_table) {
    // AFD: decode from the layer-level table (its transfers included); prefill on the attention
    // GPUs as one TP group.
    ForwardBatch prefill = batch;
    prefill.decode_sequences = 0;
    double kernels_s = batch.decode_sequences > 0
                           ? config_.afd_table->seconds(batch.decode_sequences, batch.decode_mean_context)
                           : 0.0;
    double allreduce_tokens = 0.0;
    if (prefill.has_prefill()) {
      kernels_s += forward_batch_seconds(*config_.model, *config_.card, *config_.cost, prefill, config_.tp,
                                         config_.weights, config_.kv);
      allreduce_tokens = static_cast<double>(prefill.tokens());
    }
    return with_engine(batch, kernels_s, allreduce_tokens);
  }
  return with_engine(batch,
                     forward_batch_seconds(*config_.model, *config_.card, *config_.cost, batch, config_.tp,
                                           config_.weights, config_.kv),
                     static_cast<double>(batch.tokens()));
}

IterationShape InstanceTime::shape(const ForwardBatch& batch) const {
  return {config_.model->layers, batch.sequences(), batch.tokens(), batch.has_prefill()};
}

IterationTerms InstanceTime::with_engine(const ForwardBatch& batch, double kernels_s,
                                         double allreduce_tokens) const {
  const IterationShape s = shape(batch);
  const double allreduce_s =
      allreduce_tokens > 0.0 ? tp_allreduce_s(allreduce_tokens, replays_cuda_graph(config_.engine, s)) : 0.0;
  return iteration_terms(config_.engine, s, kernels_s, allreduce_s);
}

double InstanceTime::tp_allreduce_s(double tokens, bool cuda_graph) const {
  return config_.tp_allreduce.forward_seconds(*config_.model, tokens, config_.tp, cuda_graph);
}

double InstanceTime::kv_swap_s(double kv_tokens) const {
  // Each GPU moves its TP slice of its stage's layers; the largest stage sets the time.
  return kv_tokens * kv_bytes_per_token(*config_.model, config_.kv) / config_.tp *
         largest_stage_share(config_.model->layers, config_.pp) / config_.swap_bytes_per_s;
}

double DecodeStretch::slope_s() const {
  return iterations > 1 ? 2.0 * (mean_s - first_s) / (static_cast<double>(iterations) - 1.0) : 0.0;
}

double DecodeStretch::time_s(long done) const {
  const auto d = static_cast<double>(done);
  return d * first_s + slope_s() * d * static_cast<double>(done - 1) / 2.0;
}

DecodeStretch::Progress DecodeStretch::progress(double elapsed_s) const {
  // time_s(d) = a d² + b d: solve for the iteration under way, then step to the exact one.
  const double n = static_cast<double>(iterations);
  const double a = slope_s() / 2.0, b = first_s - slope_s() / 2.0;
  double estimate = elapsed_s / mean_s;
  const double discriminant = b * b + 4.0 * a * elapsed_s;
  if (a != 0.0 && discriminant >= 0.0) estimate = (-b + std::sqrt(discriminant)) / (2.0 * a);
  estimate = std::clamp(estimate, 1.0, n);
  long done = std::clamp<long>(static_cast<long>(std::ceil(estimate - 1e-9)), 1, iterations);
  while (done < iterations && time_s(done) < elapsed_s) ++done;
  while (done > 1 && time_s(done - 1) >= elapsed_s) --done;
  return {done, time_s(done) - elapsed_s};
}

}  // namespace rlsim
