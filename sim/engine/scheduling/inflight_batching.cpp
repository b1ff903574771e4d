// Registration of TensorRT-LLM-style in-flight batching: chunked_prefill's iteration with prompts
// kept whole.
#include "sim/engine/scheduling/inflight_batching.h"

namespace rlsim {

RLSIM_REGISTER_REPLICA_SCHEDULER(
    InflightBatchingScheduler, kInflightBatchingScheduler,
    "TensorRT-LLM in-flight batching (chunked context off): decodes and whole prompts share each "
    "iteration's token budget as one forward pass; a prompt that does not fit waits whole",
    (ParamSchema{ParamSpec::integer(
        "token_budget", 8192, 16, int64_t{1} << 24,
        "tokens one iteration computes at most (decodes + whole prompts; TensorRT-LLM max_num_tokens): a "
        "serving workload with a longer prompt is refused, as TensorRT-LLM refuses it; in a rollout such a "
        "prompt runs as the only prompt of its iteration",
        "tokens")}));

}  // namespace rlsim
