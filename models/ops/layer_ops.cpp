// Building the per-GPU ops of a forward pass (see layer_ops.h for the parallel splits).
#include "models/ops/layer_ops.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "models/arch_params.h"

namespace rlsim {
namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Math precision of a GEMM with these weights: int4 is dequantised to 16 bit (W4A16).
Precision gemm_compute_precision(Precision weights) {
  return weights == Precision::int4 ? Precision::bf16 : weights;
}

/// Output activations are written in 16 bit (fp8 GEMMs accumulate and emit bf16), fp32 stays fp32.
double output_bytes(Precision act) { return std::max(2.0, bytes_per_element(act)); }

/// A GEMM of activations [m,k] with a weight matrix [k,n] (`groups` copies), bytes counted with
/// the weight and activation precisions apart: activations m·k in, weights k·n, outputs m·n.
Op weight_gemm(std::string name, int64_t groups, int64_t m, int64_t n, int64_t k, Precision weights) {
  Op op = make_grouped_gemm(std::move(name), groups, m, n, k, gemm_compute_precision(weights));
  const Precision act = activation_precision(weights);
  const double g = static_cast<double>(groups), dm = static_cast<double>(m), dn = static_cast<double>(n),
               dk = static_cast<double>(k);
  op.bytes = g * (dm * dk * bytes_per_element(act) + dk * dn * bytes_per_element(weights) +
                  dm * dn * output_bytes(act));
  return op;
}

Op weight_gemm(std::string name, int64_t m, int64_t n, int64_t k, Precision weights) {
  return weight_gemm(std::move(name), 1, m, n, k, weights);
}

/// Routed-expert GEMM on one GPU: `assignments` token-expert pairs spread over the `active`
/// experts (fractional expectations) that this GPU holds; shapes rounded for the efficiency curve,
/// FLOPs and bytes kept exact.
Op expert_gemm(std::string name, double active, double assignments, int64_t n, int64_t k, Precision weights) {
  const int64_t groups = std::max<int64_t>(1, std::llround(active));
  const int64_t m = std::max<int64_t>(1, std::llround(assignments / std::max(active, 1e-9)));
  Op op = weight_gemm(std::move(name), groups, m, n, k, weights);
  const Precision act = activation_precision(weights);
  const double dn = static_cast<double>(n), dk = static_cast<double>(k);
  op.flops = 2.0 * assignments * dn * dk;
  op.bytes = active * dk * dn * bytes_per_element(weights) +
             assignments * (dk * bytes_per_element(act) + dn * output_bytes(act));
  return op;
}

/// SwiGLU / GELU activation between up and down projections: reads gate and up, writes one.
Op activation_op(std::string name, double tokens, double width, bool gated) {
  const double elements = tokens * width;
  return make_memory_op(std::move(name), (gated ? 3.0 : 2.0) * elements * 2.0,
                        (gated ? 6.0 : 4.0) * elements);
}

Precision attention_compute_precision(Precision kv) {
  return kv == Precision::fp8 ? Precision::fp8 : Precision::bf16;
}

void add_query_projection(std::vector<Op>& ops, const ModelArch& arch, int64_t m, int64_t q_out_local,
                          Precision w) {
  const int64_t rank = arch.attention.q_lora_rank;
  if (rank > 0) {
    ops.push_back(weight_gemm("q_a_proj", m, rank, arch.hidden_size, w));
    ops.push_back(weight_gemm("q_b_proj", m, q_out_local, rank, w));
  } else {
    ops.push_back(weight_gemm("q_proj", m, q_out_local, arch.hidden_size, w));
  }
}

void add_standard_attention(std::vector<Op>& ops, const ModelArch& arch, const ForwardPass& pass) {
  const AttentionConfig& a = arch.attention;
  const int64_t m = pass.tokens(), d = a.head_dim;
  const int q_local = static_cast<int>(ceil_div(a.q_heads, pass.tp));
  const int kv_local = static_cast<int>(std::max<int64_t>(1, ceil_div(a.kv_heads, pass.tp)));
  add_query_projection(ops, arch, m, q_local * d, pass.weights);
  ops.push_back(weight_gemm("kv_proj", m, 2 * kv_local * d, arch.hidden_size, pass.weights));
  AttentionShape shape;
  shape.batch = pass.sequences;
  shape.q_len = pass.new_tokens;
  shape.kv_len = pass.context_before + pass.new_tokens;
  shape.q_heads = q_local;
  shape.kv_heads = kv_local;
  shape.qk_head_dim = static_cast<int>(d);
  shape.v_head_dim = static_cast<int>(d);
  if (pass.kind == PassKind::decode) {
    ops.push_back(make_attention_decode("attn_core", shape, pass.kv, attention_compute_precision(pass.kv)));
  } else {
    ops.push_back(make_attention_prefill("attn_core", shape));
  }
  ops.push_back(weight_gemm("o_proj", m, arch.hidden_size, q_local * d, pass.weights));
}

// MLA (DeepSeek-V2, arXiv 2405.04434 §2.1.2): prefill up-projects the latent to per-head K/V and
// runs ordinary attention; decode absorbs W_UK into the query and W_UV into the output so the
// attention runs directly on the cached latent (d_c) and the shared rope key.
void add_latent_attention(std::vector<Op>& ops, const ModelArch& arch, const ForwardPass& pass) {
  const AttentionConfig& a = arch.attention;
  const int64_t m = pass.tokens();
  const int q_local = static_cast<int>(ceil_div(a.q_heads, pass.tp));
  const int qk = a.qk_nope_head_dim + a.qk_rope_head_dim;
  add_query_projection(ops, arch, m, int64_t{q_local} * qk, pass.weights);
  ops.push_back(
      weight_gemm("kv_a_proj", m, a.kv_lora_rank + a.qk_rope_head_dim, arch.hidden_size, pass.weights));
  AttentionShape shape;
  shape.batch = pass.sequences;
  shape.q_len = pass.new_tokens;
  shape.kv_len = pass.context_before + pass.new_tokens;
  shape.q_heads = q_local;
  if (pass.kind == PassKind::decode) {
    ops.push_back(weight_gemm("q_absorb", q_local, m, a.kv_lora_rank, a.qk_nope_head_dim, pass.weights));
    shape.kv_heads = 1;
    shape.qk_head_dim = a.kv_lora_rank + a.qk_rope_head_dim;
    shape.v_head_dim = a.kv_lora_rank;
    const Precision compute = attention_compute_precision(pass.kv);
    Op core = make_attention_decode("attn_core", shape, pass.kv, compute);
    // K and V are the same cached latent: read d_c + rope per token once, not K and V apart.
    const double cached = static_cast<double>(shape.batch) * static_cast<double>(shape.kv_len) *
                          (a.kv_lora_rank + a.qk_rope_head_dim) * bytes_per_element(pass.kv);
    const double queries = static_cast<double>(m) * q_local * (shape.qk_head_dim + shape.v_head_dim) * 2.0;
    core.bytes = cached + queries;
    ops.push_back(core);
    ops.push_back(weight_gemm("v_absorb", q_local, m, a.v_head_dim, a.kv_lora_rank, pass.weights));
  } else {
    const int64_t cached_tokens = pass.sequences * shape.kv_len;
    ops.push_back(weight_gemm("kv_b_proj", cached_tokens,
                              int64_t{q_local} * (a.qk_nope_head_dim + a.v_head_dim), a.kv_lora_rank,
                              pass.weights));
    shape.kv_heads = q_local;
    shape.qk_head_dim = qk;
    shape.v_head_dim = a.v_head_dim;
    ops.push_back(make_attention_prefill("attn_core", shape));
  }
  ops.push_back(weight_gemm("o_proj", m, arch.hidden_size, int64_t{q_local} * a.v_head_dim, pass.weights));
}

void add_dense_ffn(std::vector<Op>& ops, const std::string& prefix, const ModelArch& arch,
                   const ForwardPass& pass, int64_t width) {
  const int64_t m = pass.tokens(), local = ceil_div(width, pass.tp);
  const bool gated = arch.ffn.gated;
  ops.push_back(weight_gemm(prefix + "_up", m, (gated ? 2 : 1) * local, arch.hidden_size, pass.weights));
  ops.push_back(activation_op(prefix + "_act", static_cast<double>(m), static_cast<double>(local), gated));
  ops.push_back(weight_gemm(prefix + "_down", m, arch.hidden_size, local, pass.weights));
}

void add_moe_ffn(std::vector<Op>& ops, const ModelArch& arch, const ForwardPass& pass) {
  const FfnConfig& f = arch.ffn;
  const int64_t m = pass.tokens();
  ops.push_back(weight_gemm("router", m, f.routed_experts, arch.hidden_size, Precision::bf16));
  if (f.shared_experts > 0) {
    const int64_t size = f.shared_expert_intermediate_size > 0 ? f.shared_expert_intermediate_size
                                                               : f.expert_intermediate_size;
    add_dense_ffn(ops, "shared", arch, pass, int64_t{f.shared_experts} * size);
  }
  const double experts = f.routed_experts, k = f.experts_per_token, ep = pass.expert_parallel();
  const double hit = 1.0 - std::pow(1.0 - k / experts, static_cast<double>(m));  // P(expert gets a token)
  const double active_local = experts / ep * hit;
  const double assignments_local = static_cast<double>(m) * k / ep;
  const int64_t width = ceil_div(f.expert_intermediate_size, pass.expert_tp);
  ops.push_back(expert_gemm("expert_up", active_local, assignments_local, (f.gated ? 2 : 1) * width,
                            arch.hidden_size, pass.weights));
  ops.push_back(activation_op("expert_act", assignments_local, static_cast<double>(width), f.gated));
  ops.push_back(
      expert_gemm("expert_down", active_local, assignments_local, arch.hidden_size, width, pass.weights));
}

}  // namespace

Precision activation_precision(Precision weights) {
  if (weights == Precision::fp8 || weights == Precision::int8 || weights == Precision::fp4 ||
      weights == Precision::fp32)
    return weights;
  if (weights == Precision::fp16) return Precision::fp16;
  return Precision::bf16;
}

std::vector<Op> layer_ops(const ModelArch& arch, int layer, const ForwardPass& pass) {
  assert(pass.sequences > 0 && pass.new_tokens > 0 && pass.context_before >= 0 && pass.tp > 0 &&
         pass.expert_tp > 0 && "a forward pass needs tokens and a positive TP degree");
  std::vector<Op> ops;
  const double m = static_cast<double>(pass.tokens()), h = arch.hidden_size;
  // Two norms (read + write) and two residual adds (read 2, write 1) of the hidden state, bf16.
  ops.push_back(make_memory_op("norms", 10.0 * m * h * 2.0, 10.0 * m * h));
  if (arch.attention.kind == AttentionKind::mla) {
    add_latent_attention(ops, arch, pass);
  } else {
    add_standard_attention(ops, arch, pass);
  }
  if (is_moe_layer(arch, layer)) {
    add_moe_ffn(ops, arch, pass);
  } else {
    add_dense_ffn(ops, "ffn", arch, pass, arch.ffn.intermediate_size);
  }
  return ops;
}

std::vector<Op> head_ops(const ModelArch& arch, const ForwardPass& pass) {
  std::vector<Op> ops;
  const double m = static_cast<double>(pass.tokens()), h = arch.hidden_size;
  ops.push_back(make_memory_op("embedding", m * h * (bytes_per_element(pass.weights) + 2.0)));
  ops.push_back(make_memory_op("final_norm", 2.0 * m * h * 2.0, 4.0 * m * h));
  const int64_t logits_rows = pass.kind == PassKind::training ? pass.tokens() : pass.sequences;
  ops.push_back(weight_gemm("lm_head", logits_rows, ceil_div(arch.vocab_size, pass.tp), arch.hidden_size,
                            pass.weights));
  if (pass.kind == PassKind::training) {
    // The loss head of RL training and of the log-prob passes: each token's logits over the
    // vocabulary (its TP shard) upcast to fp32, then log-softmax, the sampled token's log-prob and the
    // entropy (NeMo RL's from_parallel_logits_to_logprobs and verl's logprobs_from_logits and
    // entropy_from_logits compute them in fp32): rlsim counts the fp32 logits written once and read
    // three times (the softmax's max and sum, the entropy), memory-bound at RL's 128-256K vocabularies.
    const double logits = m * static_cast<double>(ceil_div(arch.vocab_size, pass.tp));
    ops.push_back(make_memory_op("loss_head", 4.0 * 4.0 * logits, 6.0 * logits, Precision::fp32));
  }
  return ops;
}

std::vector<CountedOp> forward_ops(const ModelArch& arch, const ForwardPass& pass) {
  std::vector<CountedOp> counted;
  const int moe = moe_layer_count(arch), dense = arch.layers - moe;
  int first_dense = -1, first_moe = -1;
  for (int layer = 0; layer < arch.layers && (first_dense < 0 || first_moe < 0); ++layer) {
    int& first = is_moe_layer(arch, layer) ? first_moe : first_dense;
    if (first < 0) first = layer;
  }
  if (dense > 0) {
    for (Op& op : layer_ops(arch, first_dense, pass)) counted.push_back({std::move(op), dense});
  }
  if (moe > 0) {
    for (Op& op : layer_ops(arch, first_moe, pass)) counted.push_back({std::move(op), moe});
  }
  for (Op& op : head_ops(arch, pass)) counted.push_back({std::move(op), 1});
  return counted;
}

}  // namespace rlsim
