// Inference costs the engine asks for: model sizes, the time of one prefill chunk and of one
// decode iteration on a tensor-parallel group, and the bytes TP must all-reduce. Pure functions in
// SI units (seconds, bytes). Times are per GPU of the TP group and cover compute only (every GPU of
// the group runs the same ops in parallel, so this is also the group's time); the engine adds TP
// all-reduce time from `tp_allreduce_bytes_per_token` over its own links or models/timing/collectives.h.
// Ops come from models/ops/layer_ops.h; their times from the CostModel the scenario chose.
#pragma once

#include <cstdint>

#include "models/arch_params.h"  // total_params, active_params, weight_bytes, kv_bytes_per_token
#include "models/cost/cost_model.h"
#include "models/hardware.h"
#include "models/model_arch.h"
#include "models/precision.h"

namespace rlsim {

/// Seconds to prefill one chunk of `tokens` new tokens of one sequence whose KV cache already
/// holds `context_before` tokens, on a TP group of `tp` GPUs with weights in `weights` (KV written
/// in 16 bit). Includes the lm_head of the last token. Requires tokens ≥ 1, context_before ≥ 0, tp ≥ 1.
double prefill_seconds(const ModelArch& arch, const HardwareSpec& card, const CostModel& cost, int64_t tokens,
                       int64_t context_before, int tp, Precision weights);

/// Seconds of one decode iteration: `batch` sequences each generate one token, attending to
/// `mean_context` cached tokens on average (rounded to a whole token, at least 1), on a TP group
/// of `tp` GPUs. Requires batch ≥ 1, mean_context ≥ 0, tp ≥ 1. Experts are spread over the TP
/// group (EP = TP) with uniform routing.
double decode_iteration_seconds(const ModelArch& arch, const HardwareSpec& card, const CostModel& cost,
                                int64_t batch, double mean_context, int tp, Precision weights, Precision kv);

/// Bytes all-reduced across the TP group per token per forward pass, all layers: one all-reduce of
/// the hidden state after attention (o_proj) and one after the FFN (down projection) per layer,
/// 2 × layers × hidden × bytes(act) (Megatron-LM, arXiv 1909.08053 §3). Multiply by the tokens of
/// a chunk or a decode batch; each all-reduce is a ring over the TP group.
double tp_allreduce_bytes_per_token(const ModelArch& arch, Precision act);

/// Number of TP all-reduces per forward pass (2 per layer), for the latency term of alpha-beta.
int tp_allreduces_per_forward(const ModelArch& arch);

}  // namespace rlsim
