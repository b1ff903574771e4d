// The work of one layer of an attention-FFN-disaggregated (AFD) decode, split between its sides:
//  - attention GPUs (data parallel, each holds the KV cache of its own sequences and a full copy of
//    the attention weights): norms, attention projections, attention core, o_proj and the MoE
//    router (routing is decided before the dispatch), plus the embedding and lm_head once per token;
//  - FFN GPUs in groups of `ffn_tp` (1: experts spread over all of them, expert parallel; t > 1:
//    hybrid EP + TP, as Step-3's report §7.1 deploys it — each group of t GPUs in one node holds
//    E·t/nF experts, every one of them sharded t ways, and works on all tokens routed to them): the
//    routed experts, with the group's share of the tokens for the shared experts and dense FFN
//    layers (weights replicated per group and sharded t ways, tokens split over groups). A group
//    all-gathers the tokens it received and reduce-scatters its outputs inside the node (the
//    bytes: afd_group_tokens; the comms: sim/afd).
// Ops come from models/ops/layer_ops.h, their times from the scenario's CostModel; nothing here
// re-derives a FLOP or byte count. Traffic: a token is dispatched once to every FFN node that holds
// one of its top-k experts (node-level deduplication, forwarded over the node's scale-up links), and
// each such node combines one partial result back; with E experts spread evenly and uniform routing
//   P(node holding e experts gets the token) = 1 − C(E − e, k) / C(E, k),
// and for a dense layer, whose tokens are split over the FFN GPUs, the node's share of the GPUs.
#pragma once

#include <cstdint>
#include <string>
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

/// Seconds one of `ffn_gpus` FFN GPUs, in groups of `ffn_tp`, spends on layer `layer` for a
/// micro-batch of `tokens` tokens: 1/ffn_tp of each routed expert its group holds (EP over the
/// nF/ffn_tp groups), and its group's ⌈tokens / groups⌉ tokens through 1/ffn_tp of the shared
/// experts or the dense FFN. With ffn_tp 1, plain EP over all FFN GPUs.
double afd_ffn_seconds(const ModelArch& arch, const HardwareSpec& card, const CostModel& cost, int layer,
                       int64_t tokens, int ffn_gpus, int ffn_tp, const AfdPrecisions& precisions);

/// Probability that a token of layer `layer` is sent to an FFN node (or expert group) holding
/// `node_gpus` of the `ffn_gpus` FFN GPUs (see the header comment).
double afd_node_hit_probability(const ModelArch& arch, int layer, int node_gpus, int ffn_gpus);

/// Tokens of a `tokens`-token micro-batch that one expert group of `ffn_tp` GPUs works on in layer
/// `layer`: those routed to at least one of its experts (a dense layer: its share of the tokens).
/// Its all-gather moves these tokens' activations, its reduce-scatter their outputs.
double afd_group_tokens(const ModelArch& arch, int layer, double tokens, int ffn_tp, int ffn_gpus);

/// Why groups of `ffn_tp` cannot be formed from `ffn_gpus` FFN GPUs whose first is GPU `first_gpu`
/// of a pool with `gpus_per_node` GPUs per node (every group must be whole GPUs of one node, joined
/// by its scale-up links); empty when they can.
std::string afd_ffn_group_problem(int ffn_tp, int ffn_gpus, int first_gpu, int gpus_per_node);

/// Bytes of one token's hidden state on the wire in precision `p`.
double afd_token_bytes(const ModelArch& arch, Precision p);

/// Weight bytes each attention GPU holds: attention projections, norms and routers of every layer,
/// the embedding and the lm_head.
double afd_attention_weight_bytes(const ModelArch& arch, Precision weights);
/// Weight bytes each of `ffn_gpus` FFN GPUs (in groups of `ffn_tp`) holds: its share of the routed
/// experts, and 1/ffn_tp of the shared experts and the dense FFN layers.
double afd_ffn_weight_bytes(const ModelArch& arch, int ffn_gpus, int ffn_tp, Precision weights);

/// FFN FLOPs of `tokens` tokens through layer `layer` (activated experts or dense FFN, router
/// excluded), for utilisation figures.
double afd_ffn_flops(const ModelArch& arch, int layer, double tokens);

}  // namespace rlsim
