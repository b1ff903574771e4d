// PrefillFirstScheduler ("prefill_first"): vLLM V0-style continuous batching, the default batching
// of the vllm-v0 engine preset (with a budget per prefill batch it is sglang's: prefill_batches.h). At each
// boundary it admits waiting calls, oldest first, up to `max_batch` while their KV fits (evicting cached
// prefixes before refusing one; a call larger than the whole cache runs alone), and prefills every newly
// admitted call whole before any decoding. Otherwise the running batch decodes a stretch up to the next
// completion or the KV limit; when the KV left cannot give every sequence one more block, the newest sequence
// is preempted (recompute, or swap its KV to host memory) and comes back first.
#pragma once

#include "sim/engine/scheduling/replica_scheduler.h"

namespace rlsim {

inline constexpr const char* kPrefillFirstScheduler = "prefill_first";

class PrefillFirstScheduler : public ReplicaScheduler {
 public:
  PrefillFirstScheduler(const ParamValues& params, const SchedulerLimits& limits);
  IterationPlan schedule(ReplicaState& replica) override;

 protected:
  /// One prefill iteration computes at most `prefill_tokens` new prompt tokens (whole prompts, the
  /// first always; 0: every waiting call that fits, at once).
  PrefillFirstScheduler(const SchedulerLimits& limits, double prefill_tokens);

 private:
  SchedulerLimits limits_;
  double prefill_tokens_ = 0.0;
};

}  // namespace rlsim
