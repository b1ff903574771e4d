// ChunkedPrefillScheduler ("chunked_prefill"): Sarathi-Serve-style stall-free batching, as vLLM V1
// and SGLang schedule by default. Every iteration has a token budget: each decoding sequence takes
// one token of it, prompts under way take the next chunk of what is left, then waiting calls are
// admitted (KV permitting, as prefill_first admits them) and start their prompts in the budget that
// remains. Decodes and prefill chunks then run as ONE forward pass, so a long prompt no longer
// stalls the batch's decoding, and a prompt no longer waits for the prompts ahead of it to finish
// alone. With nothing to prefill the batch decodes a stretch, as prefill_first does. Preemption
// (newest first, recompute or swap) and prefix reuse are the rollout's (`preemption`,
// `prefix_cache`).
#pragma once

#include <cstdint>

#include "sim/engine/scheduling/replica_scheduler.h"

namespace rlsim {

inline constexpr const char* kChunkedPrefillScheduler = "chunked_prefill";

class ChunkedPrefillScheduler : public ReplicaScheduler {
 public:
  ChunkedPrefillScheduler(const ParamValues& params, const SchedulerLimits& limits);
  IterationPlan schedule(ReplicaState& replica) override;

 private:
  /// Plans the next chunk of running sequence `index`'s prompt within `budget`, which it lowers.
  void plan_chunk(ReplicaState& replica, size_t index, int64_t& budget, IterationPlan& plan) const;

  SchedulerLimits limits_;
  int64_t token_budget_ = 0;
};

}  // namespace rlsim
