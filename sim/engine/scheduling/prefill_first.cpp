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
    : limits_(limits) {
  (void)params;  // no parameters
}

IterationPlan PrefillFirstScheduler::schedule(ReplicaState& replica) {
  IterationPlan plan;
  while (const auto work = admit_oldest(replica, limits_)) plan.prefill.push_back(*work);
  if (plan.prefill.empty()) plan_decode_stretch(replica, limits_, plan);
  return plan;
}

}  // namespace rlsim
