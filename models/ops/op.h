// Op: one unit of GPU work whose time a cost model predicts — a GEMM, a grouped (MoE) GEMM, decode
// or prefill attention, or a memory-bound kernel (norms, activations). Each op carries its shape
// (for shape-aware efficiency curves) and its FLOPs and device-memory bytes (for the roofline).
// Shapes are per GPU: tensor- and expert-parallel splits are applied before an op is made.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "models/precision.h"

namespace rlsim {

enum class OpClass {
  gemm,               ///< C[m,n] = A[m,k] · B[k,n]
  grouped_gemm,       ///< `groups` independent GEMMs of the same m×n×k (MoE experts; m = tokens per expert)
  attention_decode,   ///< one new query token per sequence against a KV cache of `kv_len`
  attention_prefill,  ///< `q_len` query tokens per sequence, causal, against `kv_len` keys
  memory_bound,       ///< elementwise / norm / activation: time is bytes over bandwidth
};

std::string_view to_string(OpClass c);

struct GemmShape {
  int64_t m = 0;       ///< tokens
  int64_t n = 0;       ///< output features
  int64_t k = 0;       ///< input features
  int64_t groups = 1;  ///< number of independent GEMMs (grouped_gemm)
};

struct AttentionShape {
  int64_t batch = 0;    ///< sequences
  int64_t q_len = 1;    ///< query tokens per sequence (1 for decode)
  int64_t kv_len = 0;   ///< context length attended to
  int q_heads = 0;      ///< query heads on this GPU
  int kv_heads = 0;     ///< KV heads on this GPU (1 for MQA/MFA/absorbed MLA)
  int qk_head_dim = 0;  ///< dim of the q·k dot product
  int v_head_dim = 0;   ///< dim of each value vector
};

struct Op {
  std::string name;  ///< e.g. "qkv_proj", "expert_up", "attn_core"
  OpClass op_class = OpClass::gemm;
  Precision compute = Precision::bf16;  ///< precision of the math (weights/activations)
  Precision kv = Precision::bf16;       ///< KV-cache precision (attention ops)
  GemmShape gemm;                       ///< set for gemm / grouped_gemm
  AttentionShape attention;             ///< set for attention ops
  double flops = 0.0;                   ///< floating-point operations (multiply-add = 2)
  double bytes = 0.0;                   ///< device-memory bytes read + written

  double arithmetic_intensity() const { return bytes > 0.0 ? flops / bytes : 0.0; }
};

/// A dense GEMM; bytes = A + B + C in `dtype`.
Op make_gemm(std::string name, int64_t m, int64_t n, int64_t k, Precision dtype = Precision::bf16);
/// `groups` GEMMs of m×n×k each (MoE experts with m tokens each).
Op make_grouped_gemm(std::string name, int64_t groups, int64_t m, int64_t n, int64_t k,
                     Precision dtype = Precision::bf16);
/// Decode attention over a KV cache: FLOPs = 2·batch·q_heads·kv_len·(qk+v); bytes = KV read.
Op make_attention_decode(std::string name, const AttentionShape& shape, Precision kv = Precision::bf16,
                         Precision compute = Precision::bf16);
/// Causal prefill attention (flash-style: Q, K, V read once, O written once).
Op make_attention_prefill(std::string name, const AttentionShape& shape, Precision compute = Precision::bf16);
/// A memory-bound kernel moving `bytes` with `flops` of arithmetic.
Op make_memory_op(std::string name, double bytes, double flops = 0.0, Precision dtype = Precision::bf16);

}  // namespace rlsim
