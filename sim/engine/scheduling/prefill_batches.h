// PrefillBatchesScheduler ("prefill_batches"): SGLang's batching with mixed chunks off, its
// default. Waiting prompts are prefilled first, in batches of whole prompts within a token budget
// (SGLang's chunked_prefill_size), one batch per iteration with no decode in it; the running batch
// decodes only when no prompt waits (or none fits in KV). prefill_first with the budget: a prompt
// longer than the budget runs alone and whole, where SGLang would split it over several batches.
// Source: SGLang 0.5.1 (its "Release 0.5.1" commit 97a38ee8, read in the reflectionai/sglang
// fork): server_args.py enable_mixed_chunk False and chunked_prefill_size 8192 on GPUs under 160
// GB; scheduler.py get_next_batch_to_run ("Run prefill first if possible", else decode);
// schedule_policy.py PrefillAdder adds a prompt while its input fits the chunk tokens left.
#pragma once

#include "sim/engine/scheduling/prefill_first.h"

namespace rlsim {

inline constexpr const char* kPrefillBatchesScheduler = "prefill_batches";

class PrefillBatchesScheduler : public PrefillFirstScheduler {
 public:
  PrefillBatchesScheduler(const ParamValues& params, const SchedulerLimits& limits)
      : PrefillFirstScheduler(limits, static_cast<double>(params.integer("token_budget"))) {}
};

}  // namespace rlsim
