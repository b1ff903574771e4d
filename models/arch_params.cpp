// Parameter counting over ModelArch (see arch_params.h for the conventions).
#include "models/arch_params.h"

#include <algorithm>
#include <cassert>

namespace rlsim {
namespace {

double matrices_per_ffn(const FfnConfig& ffn) { return ffn.gated ? 3.0 : 2.0; }

/// Query projection: full (hidden → heads·dim) or low-rank (hidden → r, norm, r → heads·dim).
double query_params(double hidden, double rank, double query_out) {
  return rank > 0 ? hidden * rank + rank + rank * query_out : hidden * query_out;
}

}  // namespace

std::string_view attention_kind_label(AttentionKind kind) {
  switch (kind) {
    case AttentionKind::mha: return "MHA";
    case AttentionKind::gqa: return "GQA";
    case AttentionKind::mqa: return "MQA";
    case AttentionKind::mla: return "MLA";
    case AttentionKind::mfa: return "MFA";
  }
  assert(false && "unhandled attention kind");
  return "?";
}

double attention_params_per_layer(const ModelArch& arch) {
  const AttentionConfig& a = arch.attention;
  const double h = arch.hidden_size, hq = a.q_heads;
  if (a.kind == AttentionKind::mla) {
    // DeepSeek-V2/V3 MLA (arXiv 2405.04434 §2.1): q_a/q_b (or q_proj), kv_a to d_c plus the shared
    // rope key, kv_b from d_c to per-head nope-K and V, o_proj from heads·v_dim.
    const double qk_dim = a.qk_nope_head_dim + a.qk_rope_head_dim;
    const double q = query_params(h, a.q_lora_rank, hq * qk_dim);
    const double kv_a = h * (a.kv_lora_rank + a.qk_rope_head_dim) + a.kv_lora_rank;
    const double kv_b = static_cast<double>(a.kv_lora_rank) * hq * (a.qk_nope_head_dim + a.v_head_dim);
    const double o = hq * a.v_head_dim * h;
    return q + kv_a + kv_b + o;
  }
  // MHA/GQA/MQA, and Step-3's MFA (arXiv 2507.19427 §3: low-rank query, one shared K and V head).
  const double q_out = hq * a.head_dim, kv_out = static_cast<double>(a.kv_heads) * a.head_dim;
  const double q = query_params(h, a.q_lora_rank, q_out);
  const double kv = 2.0 * h * kv_out;
  const double o = q_out * h;
  const double bias = a.qkv_bias ? q_out + 2.0 * kv_out : 0.0;
  return q + kv + o + bias;
}

double dense_ffn_params(const ModelArch& arch) {
  return matrices_per_ffn(arch.ffn) * arch.hidden_size * static_cast<double>(arch.ffn.intermediate_size);
}

double routed_expert_params(const ModelArch& arch) {
  return matrices_per_ffn(arch.ffn) * arch.hidden_size *
         static_cast<double>(arch.ffn.expert_intermediate_size);
}

double shared_expert_params(const ModelArch& arch) {
  const FfnConfig& f = arch.ffn;
  const double size =
      f.shared_expert_intermediate_size > 0 ? f.shared_expert_intermediate_size : f.expert_intermediate_size;
  return f.shared_experts * matrices_per_ffn(f) * arch.hidden_size * size;
}

double router_params(const ModelArch& arch) {
  return static_cast<double>(arch.hidden_size) * arch.ffn.routed_experts;
}

double norm_params_per_layer(const ModelArch& arch) { return 2.0 * arch.hidden_size; }

double embedding_params(const ModelArch& arch) {
  return static_cast<double>(arch.vocab_size) * arch.hidden_size;
}

double lm_head_params(const ModelArch& arch) { return arch.tied_embeddings ? 0.0 : embedding_params(arch); }

bool is_moe_layer(const ModelArch& arch, int layer) {
  if (!arch.ffn.is_moe()) return false;
  const auto& dense = arch.ffn.dense_layers;
  return std::find(dense.begin(), dense.end(), layer) == dense.end();
}

int moe_layer_count(const ModelArch& arch) {
  int count = 0;
  for (int layer = 0; layer < arch.layers; ++layer) count += is_moe_layer(arch, layer) ? 1 : 0;
  return count;
}

int dense_layer_count(const ModelArch& arch) { return arch.layers - moe_layer_count(arch); }

double active_ffn_params_per_layer(const ModelArch& arch, int layer) {
  if (!is_moe_layer(arch, layer)) return dense_ffn_params(arch);
  return arch.ffn.experts_per_token * routed_expert_params(arch) + shared_expert_params(arch);
}

double moe_sparsity(const ModelArch& arch) {
  if (!arch.ffn.is_moe()) return 1.0;
  const double shared = shared_expert_params(arch), routed = routed_expert_params(arch);
  return (arch.ffn.experts_per_token * routed + shared) / (arch.ffn.routed_experts * routed + shared);
}

namespace {

/// Everything except the FFNs and the embeddings.
double non_ffn_body_params(const ModelArch& arch) {
  return arch.layers * (attention_params_per_layer(arch) + norm_params_per_layer(arch)) +
         arch.hidden_size /* final norm */;
}

double moe_layer_params(const ModelArch& arch, bool active) {
  const double experts = active ? arch.ffn.experts_per_token : arch.ffn.routed_experts;
  return experts * routed_expert_params(arch) + shared_expert_params(arch) + router_params(arch);
}

double ffn_params(const ModelArch& arch, bool active) {
  const int moe = moe_layer_count(arch);
  return (arch.layers - moe) * dense_ffn_params(arch) + moe * moe_layer_params(arch, active);
}

}  // namespace

double layer_params(const ModelArch& arch, int layer) {
  const double ffn = is_moe_layer(arch, layer) ? moe_layer_params(arch, false) : dense_ffn_params(arch);
  return attention_params_per_layer(arch) + norm_params_per_layer(arch) + ffn;
}

double total_params(const ModelArch& arch) {
  return non_ffn_body_params(arch) + ffn_params(arch, false) + embedding_params(arch) + lm_head_params(arch);
}

double active_params(const ModelArch& arch) {
  return non_ffn_body_params(arch) + ffn_params(arch, true) + embedding_params(arch) + lm_head_params(arch);
}

double active_params_as_published(const ModelArch& arch) {
  const double body = non_ffn_body_params(arch) + ffn_params(arch, true);
  switch (arch.published_active_embeddings) {
    case PublishedEmbeddings::both: return body + embedding_params(arch) + lm_head_params(arch);
    case PublishedEmbeddings::output_only: return body + embedding_params(arch);  // the head's size
    case PublishedEmbeddings::none: return body;
  }
  assert(false && "unhandled PublishedEmbeddings");
  return body;
}

double weight_bytes(const ModelArch& arch, Precision p) { return total_params(arch) * bytes_per_element(p); }

double kv_elements_per_token_per_layer(const ModelArch& arch) {
  const AttentionConfig& a = arch.attention;
  if (a.kind == AttentionKind::mla) return static_cast<double>(a.kv_lora_rank) + a.qk_rope_head_dim;
  return 2.0 * a.kv_heads * a.head_dim;
}

double kv_bytes_per_token(const ModelArch& arch, Precision kv) {
  return arch.layers * kv_elements_per_token_per_layer(arch) * bytes_per_element(kv);
}

}  // namespace rlsim
