// The ops of one forward pass through a model, per GPU of a tensor/expert-parallel group: the
// attention projections (full or MLA/MFA low-rank), attention core, o_proj, dense FFN or routed
// and shared expert GEMMs, router, norms and lm_head. Prefill, decode and training forward are all
// a ForwardPass with different shapes; the backward pass is costed from these (≈ 2× forward).
//
// Parallel splits (Megatron-LM, arXiv 1909.08053): q/o, FFN and lm_head split across `tp`; K/V
// heads split while there are enough, else replicated; low-rank down-projections (q_a, MLA kv_a)
// and the router are small and replicated. Routed experts are spread over `ep` GPUs with tokens
// routed uniformly; with few tokens only the experts that receive one are read (expected count
// E·(1 − (1 − k/E)^tokens)).
#pragma once

#include <cstdint>
#include <vector>

#include "models/model_arch.h"
#include "models/ops/op.h"

namespace rlsim {

enum class PassKind {
  prefill,   ///< causal attention over the new tokens and the cached context; logits of the last token
  decode,    ///< one new token per sequence against the KV cache (MLA absorbed)
  training,  ///< like prefill without a cache; logits for every token
};

struct ForwardPass {
  PassKind kind = PassKind::decode;
  int64_t sequences = 1;       ///< sequences in the batch
  int64_t new_tokens = 1;      ///< new tokens per sequence (1 for decode)
  int64_t context_before = 0;  ///< tokens already in each sequence's KV cache
  int tp = 1;                  ///< tensor-parallel degree
  int ep = 0;                  ///< expert-parallel degree (0 = same as tp)
  int expert_tp = 1;           ///< ways each routed expert's intermediate width is split (hybrid
                               ///< EP + TP MoE: ep groups of expert_tp GPUs, each group all experts of
                               ///< its share, each GPU 1/expert_tp of every one of them)
  Precision weights = Precision::bf16;
  Precision kv = Precision::bf16;  ///< KV cache precision (decode reads it)

  int64_t tokens() const { return sequences * new_tokens; }
  int expert_parallel() const { return ep > 0 ? ep : tp; }
};

/// Activation precision of the GEMMs for a weight precision: 8-bit weights run W8A8 (fp8/int8
/// activations), fp4 W4A4 (NVFP4 activations), everything else keeps 16-bit activations (W4A16 for
/// int4). A card without the precision's tensor cores multiplies in 16 bit (roofline.h).
Precision activation_precision(Precision weights);

/// Ops of one layer of the pass on one GPU (names: q_proj or q_a_proj/q_b_proj, kv_proj or
/// kv_a_proj/kv_b_proj, q_absorb, attn_core, v_absorb, o_proj, ffn_up/ffn_down or shared_up/
/// shared_down, router, expert_up/expert_down, norms).
std::vector<Op> layer_ops(const ModelArch& arch, int layer, const ForwardPass& pass);
/// Ops outside the layers: embedding lookup, final norm, lm_head.
std::vector<Op> head_ops(const ModelArch& arch, const ForwardPass& pass);

/// The whole forward pass as (op, how many times it runs) — layers with identical shapes are
/// merged, so a 61-layer model costs two layer templates, not 61.
struct CountedOp {
  Op op;
  int count = 1;
};
std::vector<CountedOp> forward_ops(const ModelArch& arch, const ForwardPass& pass);

}  // namespace rlsim
