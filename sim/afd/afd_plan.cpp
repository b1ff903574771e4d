// Building the AFD plan (see afd_plan.h).
#include "sim/afd/afd_plan.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "models/arch_params.h"

namespace rlsim {
namespace {

/// `total` split into `parts` nearly equal whole shares, the larger ones first.
std::vector<int64_t> split_evenly(int64_t total, int parts) {
  std::vector<int64_t> shares(static_cast<size_t>(parts), total / parts);
  for (int64_t k = 0; k < total % parts; ++k) ++shares[static_cast<size_t>(k)];
  return shares;
}

/// FFN GPUs (plan indices) grouped by the node they sit in.
std::vector<std::vector<int>> ffn_nodes(const std::vector<int>& ffn_gpus, int gpus_per_node) {
  std::vector<std::vector<int>> nodes;
  int current = -1;
  for (size_t k = 0; k < ffn_gpus.size(); ++k) {
    const int node = ffn_gpus[k] / gpus_per_node;
    if (node != current) {
      nodes.emplace_back();
      current = node;
    }
    nodes.back().push_back(static_cast<int>(k));
  }
  return nodes;
}

}  // namespace

AfdPlan make_afd_plan(const AfdScenario& scenario, const CostModel& cost) {
  const AfdDeploymentSpec& d = scenario.afd;
  const ModelArch& arch = scenario.model;
  const PoolSpec& attention_pool = *scenario.cluster.pool(d.attention_pool);
  const PoolSpec& ffn_pool = *scenario.cluster.pool(d.ffn_pool);
  AfdPlan plan;
  for (int i = 0; i < d.attention_gpus; ++i) plan.attention_gpus.push_back(i);
  const int ffn_offset = d.ffn_pool == d.attention_pool ? d.attention_gpus : 0;
  for (int k = 0; k < d.ffn_gpus; ++k) plan.ffn_gpus.push_back(ffn_offset + k);
  plan.ffn_tp = d.ffn_tp;
  plan.micro_batch_sequences = split_evenly(d.batch, d.micro_batches);
  for (int64_t sequences : plan.micro_batch_sequences)
    plan.sequences.push_back(split_evenly(sequences, d.attention_gpus));
  const auto nodes = ffn_nodes(plan.ffn_gpus, ffn_pool.gpus_per_node);

  // Layers differ only in FFN kind and whether the lm_head follows: cache op times by shape.
  std::map<std::tuple<int, bool, int64_t>, double> attention_cache;  // (moe, head, sequences)
  std::map<std::pair<bool, int64_t>, double> ffn_cache;              // (moe, tokens)
  const Precision dispatch = d.precisions.dispatch, combine = d.precisions.combine;
  for (int layer = 0; layer < arch.layers; ++layer) {
    AfdLayerPlan lp;
    lp.moe = is_moe_layer(arch, layer);
    const bool head = layer + 1 == arch.layers;
    std::vector<double> node_share;
    for (const auto& node : nodes) {
      node_share.push_back(afd_node_hit_probability(arch, layer, static_cast<int>(node.size()), d.ffn_gpus));
    }
    for (int j = 0; j < d.micro_batches; ++j) {
      const auto& sequences = plan.sequences[static_cast<size_t>(j)];
      std::vector<double> attention;
      std::vector<AfdTransfer> out, back;
      for (int i = 0; i < d.attention_gpus; ++i) {
        const int64_t s = sequences[static_cast<size_t>(i)];
        auto key = std::make_tuple(static_cast<int>(lp.moe), head, s);
        auto it = attention_cache.find(key);
        if (it == attention_cache.end()) {
          const double seconds =
              afd_attention_seconds(arch, attention_pool.card, cost, layer, s, d.context, d.precisions, head);
          it = attention_cache.emplace(key, seconds).first;
        }
        attention.push_back(it->second);
        if (s == 0) continue;
        const int rail = plan.attention_gpus[static_cast<size_t>(i)] % attention_pool.gpus_per_node;
        for (size_t f = 0; f < nodes.size(); ++f) {
          const int target = nodes[f][static_cast<size_t>(rail) % nodes[f].size()];
          const double tokens = static_cast<double>(s) * node_share[f];
          out.push_back({i, target, tokens * afd_token_bytes(arch, dispatch)});
          back.push_back({i, target, tokens * afd_token_bytes(arch, combine)});
        }
      }
      const int64_t tokens = plan.micro_batch_sequences[static_cast<size_t>(j)];
      auto it = ffn_cache.find({lp.moe, tokens});
      if (it == ffn_cache.end()) {
        const double seconds =
            afd_ffn_seconds(arch, ffn_pool.card, cost, layer, tokens, d.ffn_gpus, d.ffn_tp, d.precisions);
        it = ffn_cache.emplace(std::make_pair(lp.moe, tokens), seconds).first;
      }
      if (d.ffn_tp > 1) {
        const double group_tokens =
            afd_group_tokens(arch, layer, static_cast<double>(tokens), d.ffn_tp, d.ffn_gpus);
        lp.group_gather_bytes.push_back(group_tokens * afd_token_bytes(arch, dispatch));
        lp.group_scatter_bytes.push_back(group_tokens * afd_token_bytes(arch, combine));
      }
      lp.attention_s.push_back(std::move(attention));
      lp.ffn_s.push_back(it->second);
      lp.dispatch.push_back(std::move(out));
      lp.combine.push_back(std::move(back));
    }
    plan.ffn_flops_per_iteration += afd_ffn_flops(arch, layer, static_cast<double>(d.batch));
    plan.layers.push_back(std::move(lp));
  }
  return plan;
}

double afd_attention_layer_seconds(const AfdPlan& plan) {
  const size_t layers = plan.layers.size() > 1 ? plan.layers.size() - 1 : plan.layers.size();
  double sum = 0.0;
  double slots = 0.0;
  for (size_t l = 0; l < layers; ++l) {
    for (const auto& per_gpu : plan.layers[l].attention_s) {
      sum += *std::max_element(per_gpu.begin(), per_gpu.end());
      slots += 1.0;
    }
  }
  return slots > 0.0 ? sum / slots : 0.0;
}

}  // namespace rlsim
