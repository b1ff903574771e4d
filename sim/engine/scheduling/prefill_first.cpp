// Prefill-first continuous batching with KV-block admission, prefix reuse and newest-first
// preemption.
#include "sim/engine/scheduling/prefill_first.h"

#include "sim/engine/scheduling/kv_admission.h"

namespace rlsim {

RLSIM_REGISTER_REPLICA_SCHEDULER(
    PrefillFirstScheduler, kPrefillFirstScheduler,
    "vLLM-style continuous batching: admits calls up to max_batch while KV fits, "
    "prefills them before decoding, preempts the newest when KV runs out",
    ParamSchema{});

PrefillFirstScheduler::PrefillFirstScheduler(const ParamValues& params, const SchedulerLimits& limits)
    : PrefillFirstScheduler(limits, 0.0) {
  (void)params;  // no parameters
}

PrefillFirstScheduler::PrefillFirstScheduler(const SchedulerLimits& limits, double prefill_tokens)
    : limits_(limits), prefill_tokens_(prefill_tokens) {}

IterationPlan PrefillFirstScheduler::schedule(ReplicaState& replica) {
  IterationPlan plan;
  double tokens = 0.0;
  const auto within_budget = [&] {
    return plan.prefill.empty() || prefill_tokens_ <= 0.0 ||
           tokens + oldest_prompt_tokens(replica) <= prefill_tokens_;
  };
  while (within_budget()) {
    const auto work = admit_oldest(replica, limits_);
    if (!work) break;
    if (!work->restore) tokens += work->tokens;
    plan.prefill.push_back(*work);
  }
  if (plan.prefill.empty()) plan_decode_stretch(replica, limits_, plan);
  return plan;
}

}  // namespace rlsim
