// Parameter counts, weight bytes and KV-cache sizes of a ModelArch, broken down by component so
// the per-op costs, the Step-3 decode accounting and the catalog checks all count the same way.
// Counts follow the public configs: every linear weight, its biases where the config has them, the
// RMS/Layer norms (two per layer plus the final one, and the low-rank q/kv norms of MLA/MFA), the
// MoE router; per-head q/k norms (Qwen3, GLM-4.5) are left out (< 0.001% of any catalog model).
#pragma once

#include <cstdint>
#include <string_view>

#include "models/model_arch.h"
#include "models/precision.h"

namespace rlsim {

/// "MHA", "GQA", "MQA", "MLA" or "MFA".
std::string_view attention_kind_label(AttentionKind kind);

/// Parameters of one layer's attention block: q (full or low-rank a/b with its norm), k/v (or MLA's
/// kv_a/kv_b with its norm), o_proj, and q/k/v biases where configured.
double attention_params_per_layer(const ModelArch& arch);
/// Parameters of the dense FFN (dense layers of an MoE model, or every layer of a dense model).
double dense_ffn_params(const ModelArch& arch);
/// Parameters of one routed expert.
double routed_expert_params(const ModelArch& arch);
/// Parameters of all shared experts of one MoE layer together.
double shared_expert_params(const ModelArch& arch);
/// Router (gate) weights of one MoE layer: hidden × routed experts.
double router_params(const ModelArch& arch);
/// Norm weights of one layer (attention-input and FFN-input norms).
double norm_params_per_layer(const ModelArch& arch);
/// Input embedding table (vocab × hidden).
double embedding_params(const ModelArch& arch);
/// Output projection (lm_head); 0 when tied to the input embedding.
double lm_head_params(const ModelArch& arch);

/// Every parameter of layer `layer` (0-based): attention, norms and its FFN (all experts and the
/// router of an MoE layer). Embeddings, lm_head and the final norm are outside the layers.
double layer_params(const ModelArch& arch, int layer);

/// True when layer `layer` (0-based) has a routed-expert FFN.
bool is_moe_layer(const ModelArch& arch, int layer);
/// Number of layers with a routed-expert FFN (0 for a dense model).
int moe_layer_count(const ModelArch& arch);
/// Number of layers with a dense FFN.
int dense_layer_count(const ModelArch& arch);

/// FFN parameters activated per token in one layer: the dense FFN, or top-k routed + shared
/// experts (router excluded).
double active_ffn_params_per_layer(const ModelArch& arch, int layer);
/// MoE sparsity: activated / total expert parameters of one MoE layer, shared experts included
/// ((k·routed + shared) / (E·routed + shared)); 1 for a dense model.
double moe_sparsity(const ModelArch& arch);

/// Every parameter of the model, embeddings included.
double total_params(const ModelArch& arch);
/// Parameters used for one token: everything except the routed experts it is not sent to
/// (input embedding and lm_head included).
double active_params(const ModelArch& arch);
/// `active_params` counted the way the model's publisher counts (arch.published_active_embeddings),
/// for comparison with arch.published_active_params.
double active_params_as_published(const ModelArch& arch);
/// Bytes of all weights stored in precision `p`.
double weight_bytes(const ModelArch& arch, Precision p);

/// KV-cache elements stored per token per layer: 2·kv_heads·head_dim for MHA/GQA/MQA/MFA, and the
/// compressed latent plus the shared rope key (kv_lora_rank + qk_rope_head_dim) for MLA.
double kv_elements_per_token_per_layer(const ModelArch& arch);
/// KV-cache bytes per token over all layers, in precision `kv`.
double kv_bytes_per_token(const ModelArch& arch, Precision kv);

}  // namespace rlsim
