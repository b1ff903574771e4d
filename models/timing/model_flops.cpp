// Model FLOPs per token by the PaLM / Megatron convention (see model_flops.h).
#include "models/timing/model_flops.h"

#include "models/arch_params.h"

namespace rlsim {
namespace {

/// Per-head dims of the query-key product and of the values.
struct HeadDims {
  double qk, v;
};

HeadDims head_dims(const AttentionConfig& a) {
  if (a.kind == AttentionKind::mla)
    return {static_cast<double>(a.qk_nope_head_dim + a.qk_rope_head_dim), static_cast<double>(a.v_head_dim)};
  return {static_cast<double>(a.head_dim), static_cast<double>(a.head_dim)};
}

}  // namespace

double forward_model_flops_per_token(const ModelArch& arch, double sequence_tokens) {
  // Every active parameter is a matmul weight but the input embedding (a lookup); with tied
  // embeddings the same table is the lm_head's matmul and counts once.
  const double matmul_params = active_params(arch) - (arch.tied_embeddings ? 0.0 : embedding_params(arch));
  const HeadDims d = head_dims(arch.attention);
  const double attention = 2.0 * arch.attention.q_heads * (d.qk + d.v) * sequence_tokens * arch.layers;
  return 2.0 * matmul_params + attention;
}

double training_model_flops_per_token(const ModelArch& arch, double sequence_tokens) {
  return 3.0 * forward_model_flops_per_token(arch, sequence_tokens);
}

double model_flops_utilization(double model_flops, double seconds, double gpus, double peak_flops_per_s) {
  const double capacity = seconds * gpus * peak_flops_per_s;
  return capacity > 0.0 ? model_flops / capacity : 0.0;
}

}  // namespace rlsim
