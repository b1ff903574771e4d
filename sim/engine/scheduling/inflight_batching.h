// InflightBatchingScheduler ("inflight_batching"): TensorRT-LLM's in-flight batching with chunked
// context off, its default. Every iteration has a token budget (TensorRT-LLM's max_num_tokens):
// each decoding sequence takes one token of it, then waiting calls are admitted in arrival order
// (KV permitting) while their WHOLE prompt fits in what is left; the first prompt that does not
// fit waits for the next iteration, and so do the calls behind it. Decodes and the admitted
// prompts run as one forward pass. Unlike chunked_prefill no prompt is split across iterations,
// so a prompt either gets its first token at the end of the iteration it joins or waits whole.
// TensorRT-LLM refuses a prompt longer than the whole budget: a serving scenario whose workload
// has one is refused before it runs (tools/kinds/serve_kind.cpp); in a rollout, whose prompts grow
// turn by turn, such a prompt runs as the only prompt of its iteration, with the decodes. Source:
// TensorRT-LLM documentation, "Tuning Max Batch Size and Max Num Tokens"
// (nvidia.github.io/TensorRT-LLM/performance/performance-tuning-
// guide/tuning-max-batch-size-and-max-num-tokens.html), whose scheduler walk-through admits whole
// prompts within max_num_tokens and mixes them with generation; "Paged Attention, IFB, and
// Request Scheduling" (context and generation phases in one batch).
#pragma once

#include "sim/engine/scheduling/chunked_prefill.h"

namespace rlsim {

inline constexpr const char* kInflightBatchingScheduler = "inflight_batching";

class InflightBatchingScheduler : public ChunkedPrefillScheduler {
 public:
  InflightBatchingScheduler(const ParamValues& params, const SchedulerLimits& limits)
      : ChunkedPrefillScheduler(params, limits, /*split_prompts=*/false) {}
};

}  // namespace rlsim
