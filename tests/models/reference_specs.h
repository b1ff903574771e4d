// Hand-written architectures and cards for the models/ unit tests (which do not load the YAML
// catalog), with the figures of their public configs and datasheets.
#pragma once

#include "models/hardware.h"
#include "models/model_arch.h"

namespace rlsim::test {

inline AttentionConfig attention(AttentionKind kind, int q_heads, int kv_heads, int head_dim,
                                 int q_lora_rank = 0) {
  AttentionConfig a;
  a.kind = kind;
  a.q_heads = q_heads;
  a.kv_heads = kv_heads;
  a.head_dim = head_dim;
  a.q_lora_rank = q_lora_rank;
  return a;
}

/// Llama-2-7B: MHA 32×128, SwiGLU 11008, vocab 32000.
inline ModelArch llama2_7b() {
  ModelArch m;
  m.name = "llama-2-7b";
  m.layers = 32;
  m.hidden_size = 4096;
  m.vocab_size = 32000;
  m.attention = attention(AttentionKind::mha, 32, 32, 128);
  m.ffn.intermediate_size = 11008;
  return m;
}

/// Qwen3-235B-A22B-like GQA MoE: 64 q / 4 kv heads, 128 experts top-8, no shared expert.
inline ModelArch qwen3_235b() {
  ModelArch m;
  m.name = "qwen3-235b-a22b";
  m.layers = 94;
  m.hidden_size = 4096;
  m.vocab_size = 151936;
  m.attention = attention(AttentionKind::gqa, 64, 4, 128);
  m.ffn.routed_experts = 128;
  m.ffn.experts_per_token = 8;
  m.ffn.expert_intermediate_size = 1536;
  return m;
}

/// DeepSeek-V3: MLA 128 heads, q_lora 1536, d_c 512, rope 64; 256 experts top-8 + 1 shared.
inline ModelArch deepseek_v3() {
  ModelArch m;
  m.name = "deepseek-v3";
  m.layers = 61;
  m.hidden_size = 7168;
  m.vocab_size = 129280;
  m.attention.kind = AttentionKind::mla;
  m.attention.q_heads = 128;
  m.attention.kv_heads = 1;
  m.attention.q_lora_rank = 1536;
  m.attention.kv_lora_rank = 512;
  m.attention.qk_rope_head_dim = 64;
  m.attention.qk_nope_head_dim = 128;
  m.attention.v_head_dim = 128;
  m.ffn.intermediate_size = 18432;
  m.ffn.routed_experts = 256;
  m.ffn.experts_per_token = 8;
  m.ffn.shared_experts = 1;
  m.ffn.expert_intermediate_size = 2048;
  m.ffn.dense_layers = {0, 1, 2};
  m.published_active_embeddings = PublishedEmbeddings::output_only;
  return m;
}

/// Step-3 text model as issue 3 / arXiv 2507.19427 specify it.
inline ModelArch step3() {
  ModelArch m;
  m.name = "step3";
  m.layers = 61;
  m.hidden_size = 7168;
  m.vocab_size = 128815;
  m.attention = attention(AttentionKind::mfa, 64, 1, 256, 2048);
  m.ffn.intermediate_size = 18432;
  m.ffn.routed_experts = 48;
  m.ffn.experts_per_token = 3;
  m.ffn.shared_experts = 1;
  m.ffn.expert_intermediate_size = 5120;
  m.ffn.dense_layers = {0, 1, 2, 3, 60};
  m.published_active_embeddings = PublishedEmbeddings::output_only;
  return m;
}

inline HardwareSpec card(const char* name, double bf16, double fp8, double bw, double price,
                         double nic = 50e9) {
  HardwareSpec c;
  c.name = name;
  c.peak_flops[Precision::bf16] = bf16;
  c.peak_flops[Precision::fp16] = bf16;
  if (fp8 > 0) c.peak_flops[Precision::fp8] = fp8;
  c.mem_bw_bytes_per_s = bw;
  c.mem_capacity_bytes = 80e9;
  c.nic_bw_bytes_per_s = nic;
  c.usd_per_hour = price;
  return c;
}

/// Datasheets (NVIDIA) and Step-3 paper Table 5 prices.
inline HardwareSpec h100() { return card("H100", 989e12, 1979e12, 3.35e12, 2.5); }
inline HardwareSpec h800() { return card("H800", 989e12, 1979e12, 3.35e12, 2.0); }
inline HardwareSpec h20() { return card("H20", 148e12, 296e12, 4.0e12, 0.8); }
inline HardwareSpec a800() { return card("A800", 312e12, 0.0, 2.039e12, 0.75, 25e9); }

}  // namespace rlsim::test
