// The work of one layer of an attention-FFN-disaggregated (AFD) decode, split between its sides:
//  - attention GPUs (data parallel, each holds the KV cache of its own sequences and a full copy of
//    the attention weights): norms, attention projections, attention core, o_proj and the MoE
//    router (routing is decided before the dispatch), plus the embedding and lm_head once per token;
//  - FFN GPUs (experts spread over all of them, expert parallel): the routed experts, with each
//    GPU's tokens for the shared experts and dense FFN layers (weights replicated, tokens split).
// Ops come from models/ops/layer_ops.h, their times from the scenario's CostModel; nothing here
// re-derives a FLOP or byte count. Traffic: a token is dispatched once to every FFN node that holds
// one of its top-k experts (node-level deduplication, forwarded over the node's scale-up links), and
// each such node combines one partial result back; with E experts spread evenly and uniform routing
//   P(node holding e experts gets the token) = 1 − C(E − e, k) / C(E, k),
// and for a dense layer, whose tokens are split over the FFN GPUs, the node's share of the GPUs.
#pragma once

#include <cstdint>
#include <vector>

#include "models/cost/cost_model.h"
#include "models/hardware.h"
#include "models/model_arch.h"
#include "models/ops/layer_ops.h"

namespace rlsim {

enum class AfdSide { attention, ffn };

/// Which side of an AFD deployment runs `op` (by its layer_ops name: expert_*, shared_* and ffn_*
/// are the FFN's, everything else the attention's).
AfdSide afd_side(const Op& op);

/// The decode precisions of an AFD deployment.
struct AfdPrecisions {
  Precision weights = Precision::fp8;   ///< linear layers and experts
  Precision kv = Precision::fp8;        ///< KV cache
  Precision dispatch = Precision::fp8;  ///< activations sent to the FFN
  Precision combine = Precision::bf16;  ///< expert outputs sent back
};

/// Seconds one attention GPU spends on layer `layer` for `sequences` sequences of `context` cached
/// tokens (0 sequences: 0). With `with_head` the embedding, final norm and lm_head are added (once
/// per generated token, on the last layer).
double afd_attention_seconds(const ModelArch& arch, const HardwareSpec& card, const CostModel& cost,
                             int layer, int64_t sequences, int64_t context, const AfdPrecisions& precisions,
                             bool with_head);

/// Seconds one of `ffn_gpus` FFN GPUs spends on layer `layer` for a micro-batch of `tokens` tokens:
/// its share of the routed experts (EP over all FFN GPUs) and its ⌈tokens / ffn_gpus⌉ tokens
/// through the shared experts or the dense FFN.
double afd_ffn_seconds(const ModelArch& arch, const HardwareSpec& card, const CostModel& cost, int layer,
                       int64_t tokens, int ffn_gpus, const AfdPrecisions& precisions);

/// Probability that a token of layer `layer` is sent to an FFN node holding `node_gpus` of the
/// `ffn_gpus` FFN GPUs (see the header comment).
double afd_node_hit_probability(const ModelArch& arch, int layer, int node_gpus, int ffn_gpus);

/// Bytes of one token's hidden state on the wire in precision `p`.
double afd_token_bytes(const ModelArch& arch, Precision p);

/// Weight bytes each attention GPU holds: attention projections, norms and routers of every layer,
/// the embedding and the lm_head.
double afd_attention_weight_bytes(const ModelArch& arch, Precision weights);
/// Weight bytes each of `ffn_gpus` FFN GPUs holds: its share of the routed experts, and full copies
/// of the shared experts and the dense FFN layers.
double afd_ffn_weight_bytes(const ModelArch& arch, int ffn_gpus, Precision weights);

/// FFN FLOPs of `tokens` tokens through layer `layer` (activated experts or dense FFN, router
/// excluded), for utilisation figures.
double afd_ffn_flops(const ModelArch& arch, int layer, double tokens);

}  // namespace rlsim
