// ModelArch: the structure of a transformer LLM as its public config describes it — attention
// design, FFN (dense or mixture-of-experts), depth, width, vocabulary. Pure data; the formulas over
// it (parameter counts, per-op FLOPs and bytes) live in their own files beside it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rlsim {

enum class AttentionKind {
  mha,  ///< multi-head: kv_heads == q_heads
  gqa,  ///< grouped-query: 1 < kv_heads < q_heads
  mqa,  ///< multi-query: kv_heads == 1
  mla,  ///< DeepSeek multi-head latent attention: low-rank q and kv, decoupled rope, absorbed decode
  mfa,  ///< Step-3 multi-matrix factorisation attention: low-rank query, one shared K and V head
};

struct AttentionConfig {
  AttentionKind kind = AttentionKind::gqa;
  int q_heads = 0;
  int kv_heads = 0;          ///< K/V heads (1 for MQA and MFA); unused by MLA
  int head_dim = 0;          ///< per-head dim of q/k/v for MHA/GQA/MQA/MFA
  int q_lora_rank = 0;       ///< MLA / MFA query low-rank dimension; 0 = full-rank query projection
  int kv_lora_rank = 0;      ///< MLA d_c (compressed KV latent); 0 for others
  int qk_rope_head_dim = 0;  ///< MLA decoupled rope dim per head (shared rope key)
  int qk_nope_head_dim = 0;  ///< MLA non-rope q/k dim per head
  int v_head_dim = 0;        ///< MLA v dim per head
  bool qkv_bias = false;     ///< bias on q, k, v projections (Qwen, Phi-2)

  bool operator==(const AttentionConfig&) const = default;
};

struct FfnConfig {
  int intermediate_size = 0;  ///< dense FFN intermediate size (dense layers)
  bool gated = true;          ///< SwiGLU-style gate (3 matrices) vs plain up/down (2)
  int routed_experts = 0;     ///< 0 = dense model
  int experts_per_token = 0;  ///< top-k
  int shared_experts = 0;
  int expert_intermediate_size = 0;         ///< per routed expert
  int shared_expert_intermediate_size = 0;  ///< per shared expert; 0 = same as routed
  std::vector<int> dense_layers;            ///< layer indices with a dense FFN in an MoE model

  bool is_moe() const { return routed_experts > 0; }
  bool operator==(const FfnConfig&) const = default;
};

/// Which embedding matrices a publisher counts in its "activated parameters" figure. Publishers
/// differ: Qwen counts both the input embedding and the lm_head; DeepSeek-V3, Kimi K2 and Step-3
/// count the lm_head but not the input lookup table; GLM-4.5 counts neither.
enum class PublishedEmbeddings {
  both,         ///< input embedding + lm_head (a tied matrix once)
  output_only,  ///< lm_head only (the input embedding is a lookup, not compute)
  none,         ///< neither: non-embedding activated parameters
};

struct ModelArch {
  std::string name;    ///< catalog key, e.g. "qwen3-8b"
  std::string source;  ///< where the numbers come from (config URL, paper)
  int layers = 0;
  int hidden_size = 0;
  int vocab_size = 0;
  bool tied_embeddings = false;
  /// Tokens one sequence (prompt and output together) may hold as the model was trained:
  /// config.json's max_position_embeddings. An engine's max_model_len defaults to it.
  int64_t context_window_tokens = 0;
  /// A longer window the model's authors document (rope scaling such as YaRN, or extrapolation), which an
  /// engine may be configured up to (0 = none documented).
  int64_t extended_context_tokens = 0;
  AttentionConfig attention;
  FfnConfig ffn;
  /// Published figures the catalog carries for checking (0 = not published).
  double published_total_params = 0.0;
  double published_active_params = 0.0;
  /// How `published_active_params` treats the embedding matrices (see PublishedEmbeddings).
  PublishedEmbeddings published_active_embeddings = PublishedEmbeddings::both;

  /// The same layers (depth, width, vocabulary, attention, FFN): every cost is the same, whatever
  /// the name, window or training (Llama-3-70B, 3.1-70B and 3.3-70B).
  bool same_layers(const ModelArch& other) const {
    return layers == other.layers && hidden_size == other.hidden_size && vocab_size == other.vocab_size &&
           tied_embeddings == other.tied_embeddings && attention == other.attention && ffn == other.ffn;
  }
};

}  // namespace rlsim
