// Constructors of Op: the FLOP and byte counts of each op class.
#include "models/ops/op.h"

#include <cassert>

namespace rlsim {

std::string_view to_string(OpClass c) {
  switch (c) {
    case OpClass::gemm: return "gemm";
    case OpClass::grouped_gemm: return "grouped_gemm";
    case OpClass::attention_decode: return "attention_decode";
    case OpClass::attention_prefill: return "attention_prefill";
    case OpClass::memory_bound: return "memory_bound";
  }
  assert(false && "unhandled op class");
  return "?";
}

Op make_gemm(std::string name, int64_t m, int64_t n, int64_t k, Precision dtype) {
  return make_grouped_gemm(std::move(name), 1, m, n, k, dtype);
}

Op make_grouped_gemm(std::string name, int64_t groups, int64_t m, int64_t n, int64_t k, Precision dtype) {
  assert(groups > 0 && m > 0 && n > 0 && k > 0 && "GEMM dimensions must be positive");
  Op op;
  op.name = std::move(name);
  op.op_class = groups == 1 ? OpClass::gemm : OpClass::grouped_gemm;
  op.compute = dtype;
  op.gemm = GemmShape{m, n, k, groups};
  const double g = static_cast<double>(groups), dm = static_cast<double>(m), dn = static_cast<double>(n),
               dk = static_cast<double>(k);
  op.flops = 2.0 * g * dm * dn * dk;
  // Outputs are written in 16-bit even when inputs are 8-bit (fp8 GEMMs accumulate and emit bf16).
  const double in_bytes = bytes_per_element(dtype);
  const double out_bytes = in_bytes < 2.0 ? 2.0 : in_bytes;
  op.bytes = g * ((dm * dk + dk * dn) * in_bytes + dm * dn * out_bytes);
  return op;
}

Op make_attention_decode(std::string name, const AttentionShape& s, Precision kv, Precision compute) {
  assert(s.batch > 0 && s.kv_len > 0 && s.q_heads > 0 && s.kv_heads > 0 &&
         "attention shape must be positive");
  Op op;
  op.name = std::move(name);
  op.op_class = OpClass::attention_decode;
  op.compute = compute;
  op.kv = kv;
  op.attention = s;
  const double b = static_cast<double>(s.batch), t = static_cast<double>(s.kv_len),
               q = static_cast<double>(s.q_len);
  op.flops = 2.0 * b * q * s.q_heads * t * (s.qk_head_dim + s.v_head_dim);
  const double kv_elems = b * t * s.kv_heads * (s.qk_head_dim + s.v_head_dim);
  const double act = bytes_per_element(compute);
  op.bytes = kv_elems * bytes_per_element(kv) + b * q * s.q_heads * (s.qk_head_dim + s.v_head_dim) * act;
  return op;
}

Op make_attention_prefill(std::string name, const AttentionShape& s, Precision compute) {
  assert(s.batch > 0 && s.q_len > 0 && s.q_heads > 0 && s.kv_heads > 0 && "attention shape must be positive");
  Op op;
  op.name = std::move(name);
  op.op_class = OpClass::attention_prefill;
  op.compute = compute;
  op.kv = compute;
  op.attention = s;
  const double b = static_cast<double>(s.batch), q = static_cast<double>(s.q_len),
               t = static_cast<double>(s.kv_len > 0 ? s.kv_len : s.q_len);
  // Causal: on average each query attends to the (t - q) cached keys plus half of its own chunk.
  const double keys_per_query = (t - q) + (q + 1.0) / 2.0;
  op.flops = 2.0 * b * q * s.q_heads * keys_per_query * (s.qk_head_dim + s.v_head_dim);
  const double act = bytes_per_element(compute);
  op.bytes = b * act *
             (q * s.q_heads * (s.qk_head_dim + s.v_head_dim) +   // Q in, O out
              t * s.kv_heads * (s.qk_head_dim + s.v_head_dim));  // K, V in
  return op;
}

Op make_memory_op(std::string name, double bytes, double flops, Precision dtype) {
  Op op;
  op.name = std::move(name);
  op.op_class = OpClass::memory_bound;
  op.compute = dtype;
  op.bytes = bytes;
  op.flops = flops;
  return op;
}

}  // namespace rlsim
