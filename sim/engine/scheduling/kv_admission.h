// Admission, decode stretches and preemption under a paged KV cache: the steps the replica
// schedulers share (prefill_first, chunked_prefill, inflight_batching). Each works on a ReplicaState within
// the contract of replica_scheduler.h.
#pragma once

#include <optional>
#include <vector>

#include "sim/engine/scheduling/replica_scheduler.h"

namespace rlsim {

/// Paged KV caches (vLLM, SGLang) allocate KV in blocks of this many tokens: a sequence runs out of
/// KV at a block boundary, not at every token.
inline constexpr double kKvBlockTokens = 16.0;

/// Admits the oldest waiting call into the running batch when its whole KV fits (reusing its
/// trajectory's cached prefix, evicting other prefixes before refusing; a call larger than the
/// whole cache runs alone) and returns the prefill of its whole prompt (or the restore of its
/// swapped KV); the call's Sequence records the prompt tokens to compute in `prefill_left`.
/// nullopt when nothing waits, the batch is full or the call does not fit.
std::optional<PrefillWork> admit_oldest(ReplicaState& replica, const SchedulerLimits& limits);

/// The prompt tokens the oldest waiting call would compute if admit_oldest admitted it now (its
/// cached prefix reused, or everything again after a recompute preemption); 0 when nothing waits
/// or its KV would be restored from host memory instead of computed.
double oldest_prompt_tokens(const ReplicaState& replica);

/// Plans a decode stretch of the whole running batch, up to the first completion or the KV limit;
/// when the KV left cannot give every sequence one more block, preempts the newest sequence instead
/// (recompute, or swap its KV out). False when the batch is empty.
bool plan_decode_stretch(ReplicaState& replica, const SchedulerLimits& limits, IterationPlan& plan);

/// Sends the newest running sequence back to the front of `waiting`; false when it is the only one.
bool preempt_newest(ReplicaState& replica, const SchedulerLimits& limits, IterationPlan& plan);

}  // namespace rlsim
