// Decode accounting per generated token at context T, summed over layers, in the convention of the
// Step-3 paper (StepFun, arXiv 2507.19427 §3-4) so results compare with its tables:
//   KV bytes        = KV elements per token per layer × layers × T × KV bytes per element
//   attention FLOPs = 4 × query heads × d × layers × T  (QK and SV; linear layers excluded), where d
//                     is the head dim for MHA/GQA/MQA/MFA and d_c + rope dim for absorbed MLA
//   linear FLOPs    = 2 × parameters of the attention projections (all layers)
//   FFN FLOPs       = 2 × activated FFN parameters (dense layers dense; MoE layers top-k routed
//                     plus shared experts; router excluded)
// Attention arithmetic intensity = attention FLOPs / KV bytes, independent of T and of the batch.
#pragma once

#include "models/model_arch.h"
#include "models/precision.h"

namespace rlsim {

struct DecodeTokenCost {
  double kv_bytes = 0.0;         ///< KV cache read for one token at context T
  double attention_flops = 0.0;  ///< attention core (QK, SV)
  double linear_flops = 0.0;     ///< attention projections (q, k, v or low-rank, o)
  double ffn_flops = 0.0;        ///< activated FFN / experts

  double attention_arithmetic_intensity() const { return kv_bytes > 0 ? attention_flops / kv_bytes : 0.0; }
};

/// The dot-product width `d` of the accounting: head_dim, or kv_lora_rank + rope dim for MLA.
double attention_dot_dim(const ModelArch& arch);
/// Per-token decode figures at context `context` with the KV cache in precision `kv`.
DecodeTokenCost decode_token_cost(const ModelArch& arch, double context, Precision kv);

}  // namespace rlsim
