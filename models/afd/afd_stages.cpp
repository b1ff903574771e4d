// Splitting a layer's ops between the attention and FFN sides of AFD (see afd_stages.h).
#include "models/afd/afd_stages.h"

#include <cassert>
#include <string_view>

#include "models/arch_params.h"

namespace rlsim {
namespace {

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

bool routed_expert_op(const Op& op) { return starts_with(op.name, "expert_"); }

ForwardPass decode_pass(int64_t sequences, int64_t context, int ep, const AfdPrecisions& precisions) {
  ForwardPass pass;
  pass.kind = PassKind::decode;
  pass.sequences = sequences;
  pass.new_tokens = 1;
  pass.context_before = context;
  pass.tp = 1;
  pass.ep = ep;
  pass.weights = precisions.weights;
  pass.kv = precisions.kv;
  return pass;
}

}  // namespace

AfdSide afd_side(const Op& op) {
  if (routed_expert_op(op) || starts_with(op.name, "shared_") || starts_with(op.name, "ffn_"))
    return AfdSide::ffn;
  return AfdSide::attention;
}

double afd_attention_seconds(const ModelArch& arch, const HardwareSpec& card, const CostModel& cost,
                             int layer, int64_t sequences, int64_t context, const AfdPrecisions& precisions,
                             bool with_head) {
  assert(sequences >= 0 && context >= 0 && "attention work needs a non-negative batch and context");
  if (sequences == 0) return 0.0;
  const ForwardPass pass = decode_pass(sequences, context, 1, precisions);
  double seconds = 0.0;
  for (const Op& op : layer_ops(arch, layer, pass)) {
    if (afd_side(op) == AfdSide::attention) seconds += cost.seconds(op, card);
  }
  if (with_head) {
    for (const Op& op : head_ops(arch, pass)) seconds += cost.seconds(op, card);
  }
  return seconds;
}

double afd_ffn_seconds(const ModelArch& arch, const HardwareSpec& card, const CostModel& cost, int layer,
                       int64_t tokens, int ffn_gpus, const AfdPrecisions& precisions) {
  assert(tokens >= 0 && ffn_gpus >= 1 && "FFN work needs a non-negative batch and FFN GPUs");
  if (tokens == 0) return 0.0;
  double seconds = 0.0;
  // Routed experts: every token's k experts, spread over all FFN GPUs.
  for (const Op& op : layer_ops(arch, layer, decode_pass(tokens, 0, ffn_gpus, precisions))) {
    if (routed_expert_op(op)) seconds += cost.seconds(op, card);
  }
  // Shared experts and dense FFN layers: replicated weights, this GPU's share of the tokens.
  const int64_t local_tokens = (tokens + ffn_gpus - 1) / ffn_gpus;
  for (const Op& op : layer_ops(arch, layer, decode_pass(local_tokens, 0, ffn_gpus, precisions))) {
    if (afd_side(op) == AfdSide::ffn && !routed_expert_op(op)) seconds += cost.seconds(op, card);
  }
  return seconds;
}

double afd_node_hit_probability(const ModelArch& arch, int layer, int node_gpus, int ffn_gpus) {
  assert(node_gpus >= 0 && node_gpus <= ffn_gpus && "a node holds part of the FFN GPUs");
  const double share = static_cast<double>(node_gpus) / ffn_gpus;
  if (!is_moe_layer(arch, layer)) return share;
  const double experts = arch.ffn.routed_experts;
  const double on_node = experts * share;
  // P(none of the k distinct experts is on the node) = Π_{j<k} (E − e − j) / (E − j).
  double miss = 1.0;
  for (int j = 0; j < arch.ffn.experts_per_token; ++j) {
    const double left = experts - on_node - j;
    miss *= left > 0.0 ? left / (experts - j) : 0.0;
  }
  return 1.0 - miss;
}

double afd_token_bytes(const ModelArch& arch, Precision p) { return arch.hidden_size * bytes_per_element(p); }

double afd_attention_weight_bytes(const ModelArch& arch, Precision weights) {
  const double params = arch.layers * (attention_params_per_layer(arch) + norm_params_per_layer(arch)) +
                        moe_layer_count(arch) * router_params(arch) + embedding_params(arch) +
                        lm_head_params(arch);
  return params * bytes_per_element(weights);
}

double afd_ffn_weight_bytes(const ModelArch& arch, int ffn_gpus, Precision weights) {
  assert(ffn_gpus >= 1 && "FFN weights need FFN GPUs");
  const double moe_layers = moe_layer_count(arch);
  const double routed = arch.ffn.is_moe() ? routed_expert_params(arch) * arch.ffn.routed_experts : 0.0;
  const double params = moe_layers * (routed / ffn_gpus + shared_expert_params(arch)) +
                        dense_layer_count(arch) * dense_ffn_params(arch);
  return params * bytes_per_element(weights);
}

double afd_ffn_flops(const ModelArch& arch, int layer, double tokens) {
  return 2.0 * active_ffn_params_per_layer(arch, layer) * tokens;
}

}  // namespace rlsim
