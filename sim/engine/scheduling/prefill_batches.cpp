// Registration of SGLang-style prefill batches: prefill_first with a token budget per batch.
#include "sim/engine/scheduling/prefill_batches.h"

namespace rlsim {

RLSIM_REGISTER_REPLICA_SCHEDULER(
    PrefillBatchesScheduler, kPrefillBatchesScheduler,
    "SGLang batching (mixed chunks off, its default): waiting prompts prefill first, in batches of whole "
    "prompts within the token budget, one batch per iteration; the running batch decodes when none waits",
    (ParamSchema{ParamSpec::integer(
        "token_budget", 8192, 16, int64_t{1} << 24,
        "new prompt tokens one prefill batch computes at most (SGLang chunked_prefill_size); a longer prompt "
        "runs alone, whole",
        "tokens")}));

}  // namespace rlsim
