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
  pass.expert_tp = 1;
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
                       int64_t tokens, int ffn_gpus, int ffn_tp, const AfdPrecisions& precisions) {
  assert(tokens >= 0 && ffn_gpus >= 1 && ffn_tp >= 1 && ffn_gpus % ffn_tp == 0 &&
         "FFN work needs a non-negative batch and FFN GPUs in whole groups");
  if (tokens == 0) return 0.0;
  const int groups = ffn_gpus / ffn_tp;
  double seconds = 0.0;
  // Routed experts: every token's k experts, spread over the groups, each sharded over its group.
  ForwardPass routed = decode_pass(tokens, 0, groups, precisions);
  routed.expert_tp = ffn_tp;
  for (const Op& op : layer_ops(arch, layer, routed)) {
    if (routed_expert_op(op)) seconds += cost.seconds(op, card);
  }
  // Shared experts and dense FFN layers: weights replicated per group and sharded over it, the
  // group's share of the tokens.
  ForwardPass local = decode_pass((tokens + groups - 1) / groups, 0, groups, precisions);
  local.tp = ffn_tp;
  for (const Op& op : layer_ops(arch, layer, local)) {
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

double afd_group_tokens(const ModelArch& arch, int layer, double tokens, int ffn_tp, int ffn_gpus) {
  return tokens * afd_node_hit_probability(arch, layer, ffn_tp, ffn_gpus);
}

std::string afd_ffn_group_problem(int ffn_tp, int ffn_gpus, int first_gpu, int gpus_per_node) {
  const std::string t = std::to_string(ffn_tp);
  if (ffn_gpus % ffn_tp != 0) {
    return "tp " + t + " does not divide the " + std::to_string(ffn_gpus) + " FFN GPUs into whole groups";
  }
  if (gpus_per_node % ffn_tp != 0 || first_gpu % ffn_tp != 0) {
    return "a group of tp " + t + " GPUs must sit in one node of " + std::to_string(gpus_per_node) +
           " GPUs (expected tp to divide gpus_per_node, and the FFN side to start at a multiple of tp; it "
           "starts at GPU " +
           std::to_string(first_gpu) + " of its pool)";
  }
  return "";
}

double afd_token_bytes(const ModelArch& arch, Precision p) { return arch.hidden_size * bytes_per_element(p); }

double afd_attention_weight_bytes(const ModelArch& arch, Precision weights) {
  const double params = arch.layers * (attention_params_per_layer(arch) + norm_params_per_layer(arch)) +
                        moe_layer_count(arch) * router_params(arch) + embedding_params(arch) +
                        lm_head_params(arch);
  return params * bytes_per_element(weights);
}

double afd_ffn_weight_bytes(const ModelArch& arch, int ffn_gpus, int ffn_tp, Precision weights) {
  assert(ffn_gpus >= 1 && ffn_tp >= 1 && "FFN weights need FFN GPUs");
  const double moe_layers = moe_layer_count(arch);
  const double routed = arch.ffn.is_moe() ? routed_expert_params(arch) * arch.ffn.routed_experts : 0.0;
  const double params = moe_layers * (routed / ffn_gpus + shared_expert_params(arch) / ffn_tp) +
                        dense_layer_count(arch) * dense_ffn_params(arch) / ffn_tp;
  return params * bytes_per_element(weights);
}

double afd_ffn_flops(const ModelArch& arch, int layer, double tokens) {
  return 2.0 * active_ffn_params_per_layer(arch, layer) * tokens;
}

}  // namespace rlsim
