// ChunkedPrefillScheduler ("chunked_prefill"): Sarathi-Serve-style stall-free batching, as vLLM V1
// schedules by default (SGLang with --enable-mixed-chunk; its default is prefill_batches.h). Every iteration
// has a token budget: each decoding sequence takes one token of it, prompts under way take the next chunk of
// what is left, then waiting calls are admitted (KV permitting, as prefill_first admits them) and start their
// prompts in the budget that remains. Decodes and prefill chunks then run as ONE forward pass, so a long
// prompt no longer stalls the batch's decoding, and a prompt no longer waits for the prompts ahead of it to
// finish alone. With nothing to prefill the batch decodes a stretch, as prefill_first does. Preemption
// (newest first, recompute or swap) and prefix reuse are the rollout's (`preemption`,
// `prefix_cache`). With prompts kept whole it is TensorRT-LLM's in-flight batching instead
// (sim/engine/scheduling/inflight_batching.h).
#pragma once

#include <cstdint>

#include "sim/engine/scheduling/replica_scheduler.h"

namespace rlsim {

inline constexpr const char* kChunkedPrefillScheduler = "chunked_prefill";

class ChunkedPrefillScheduler : public ReplicaScheduler {
 public:
  ChunkedPrefillScheduler(const ParamValues& params, const SchedulerLimits& limits);
  IterationPlan schedule(ReplicaState& replica) override;
  /// Prompts kept whole: none longer than the token budget (TensorRT-LLM refuses such a request
  /// without context chunking); split: any.
  std::optional<double> longest_prompt_tokens() const override;

 protected:
  /// `split_prompts` false: a prompt joins an iteration only whole, when it fits in what is left
  /// of the budget (or first, alone, when it is longer than the budget).
  ChunkedPrefillScheduler(const ParamValues& params, const SchedulerLimits& limits, bool split_prompts);

 private:
  /// Whether the oldest waiting call may start its prompt in `budget` (prompts kept whole: it fits
  /// in `budget`, or it is longer than the whole token budget and no prompt is computed in this
  /// iteration yet).
  bool oldest_fits(const ReplicaState& replica, int64_t budget, const IterationPlan& plan) const;
  /// Plans the next chunk of running sequence `index`'s prompt within `budget`, which it lowers
  /// (the whole rest of the prompt when prompts are kept whole).
  void plan_chunk(ReplicaState& replica, size_t index, int64_t& budget, IterationPlan& plan) const;

  SchedulerLimits limits_;
  int64_t token_budget_ = 0;
  bool split_prompts_ = true;
};

}  // namespace rlsim
