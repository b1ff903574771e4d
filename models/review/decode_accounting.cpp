// Step-3-style per-token decode accounting (see decode_accounting.h).
#include "models/review/decode_accounting.h"

#include "models/arch_params.h"

namespace rlsim {

double attention_dot_dim(const ModelArch& arch) {
  const AttentionConfig& a = arch.attention;
  if (a.kind == AttentionKind::mla) return static_cast<double>(a.kv_lora_rank) + a.qk_rope_head_dim;
  return a.head_dim;
}

DecodeTokenCost decode_token_cost(const ModelArch& arch, double context, Precision kv) {
  DecodeTokenCost cost;
  cost.kv_bytes = kv_bytes_per_token(arch, kv) * context;
  cost.attention_flops = 4.0 * arch.attention.q_heads * attention_dot_dim(arch) * arch.layers * context;
  cost.linear_flops = 2.0 * attention_params_per_layer(arch) * arch.layers;
  double ffn = 0.0;
  for (int layer = 0; layer < arch.layers; ++layer) ffn += active_ffn_params_per_layer(arch, layer);
  cost.ffn_flops = 2.0 * ffn;
  return cost;
}

}  // namespace rlsim
