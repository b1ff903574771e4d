// Model FLOPs: the arithmetic a model needs, whatever an implementation recomputes, by the
// convention MFU is published under (Chowdhery et al. 2022, "PaLM", arXiv 2204.02311, Appendix B;
// Korthikanti et al. 2022, arXiv 2205.05198, Appendix A, Eq. 7): a forward pass costs 2 FLOPs per
// parameter that takes part in a matmul per token (the lm_head included, the input embedding's
// lookup not) plus the attention scores and their weighted sum over the attention span s,
// 2·q_heads·(qk_dim + v_dim)·s per token per layer (the full s × s score matrix, not halved for
// causality); a backward pass costs twice a forward. For a GPT layer with h = heads·head_dim and a
// 4h MLP this is Megatron's 72·B·s·L·h²·(1 + s/6h + V/12hL) per iteration of B sequences.
// Recomputation is not counted (that would be hardware FLOPs, HFU).
#pragma once

#include "models/model_arch.h"

namespace rlsim {

/// Model FLOPs of one forward pass, per token, over an attention span of `sequence_tokens`.
double forward_model_flops_per_token(const ModelArch& arch, double sequence_tokens);

/// Model FLOPs of a forward and backward pass (3× the forward), per token.
double training_model_flops_per_token(const ModelArch& arch, double sequence_tokens);

/// Model FLOP utilisation: `model_flops` done in `seconds` on `gpus` GPUs of `peak_flops_per_s`
/// each; 0 when there is no time or no peak.
double model_flops_utilization(double model_flops, double seconds, double gpus, double peak_flops_per_s);

}  // namespace rlsim
