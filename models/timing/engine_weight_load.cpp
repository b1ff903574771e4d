// Counting a checkpoint's tensors and pricing an engine's weight-load calls.
#include "models/timing/engine_weight_load.h"

#include <cmath>

#include "models/arch_params.h"

namespace rlsim {
namespace {

int64_t attention_tensors(const AttentionConfig& a) {
  if (a.kind == AttentionKind::mla) {
    // q_proj (or q_a_proj, q_a_layernorm, q_b_proj), kv_a_proj_with_mqa, kv_a_layernorm, kv_b_proj, o_proj.
    return (a.q_lora_rank > 0 ? 3 : 1) + 4;
  }
  if (a.kind == AttentionKind::mfa) return (a.q_lora_rank > 0 ? 3 : 1) + 3;  // query pair + norm, k, v, o
  return 4 + (a.qkv_bias ? 3 : 0);                                           // q, k, v, o and their biases
}

int64_t ffn_tensors(const ModelArch& arch, int layer) {
  const FfnConfig& f = arch.ffn;
  const int dense_matrices = f.gated ? 3 : 2;
  if (!is_moe_layer(arch, layer)) return dense_matrices;
  return int64_t{f.routed_experts} * dense_matrices + 1 + (f.shared_experts > 0 ? dense_matrices : 0);
}

}  // namespace

int64_t checkpoint_tensor_count(const ModelArch& arch) {
  int64_t tensors = 0;
  for (int layer = 0; layer < arch.layers; ++layer) {
    tensors += attention_tensors(arch.attention) + 2 + ffn_tensors(arch, layer);  // + two norms
  }
  return tensors + 2 + (arch.tied_embeddings ? 0 : 1);  // embedding, final norm, lm_head
}

int64_t engine_load_calls(const ModelArch& arch, double model_bytes, const EngineLoadSpec& spec) {
  switch (spec.mode) {
    case EngineLoadMode::none: return 0;
    case EngineLoadMode::per_tensor: return checkpoint_tensor_count(arch);
    case EngineLoadMode::bucketed: return static_cast<int64_t>(std::ceil(model_bytes / spec.bucket_bytes));
  }
  return 0;
}

double engine_load_s(const ModelArch& arch, double model_bytes, const EngineLoadSpec& spec) {
  return static_cast<double>(engine_load_calls(arch, model_bytes, spec)) * spec.per_call_s;
}

}  // namespace rlsim
