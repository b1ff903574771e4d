// The foundation's simple phase costs.
#include "sim/engine/simple_costs.h"

#include <algorithm>

namespace rlsim {
namespace {
double bf16_peak(const HardwareSpec& card) { return card.peak(Precision::bf16).value_or(card.peak(Precision::fp16).value_or(1.0)); }

double attention_params_per_layer(const ModelArch& m) {
  const auto& a = m.attention;
  const double h = m.hidden_size;
  if (a.kind == AttentionKind::mla) {
    const double q = a.q_lora_rank > 0 ? h * a.q_lora_rank + a.q_lora_rank * a.q_heads * (a.qk_nope_head_dim + a.qk_rope_head_dim)
                                       : h * a.q_heads * (a.qk_nope_head_dim + a.qk_rope_head_dim);
    const double kv = h * (a.kv_lora_rank + a.qk_rope_head_dim) + a.kv_lora_rank * a.q_heads * (a.qk_nope_head_dim + a.v_head_dim);
    return q + kv + static_cast<double>(a.q_heads) * a.v_head_dim * h;
  }
  const double q = a.q_lora_rank > 0 ? h * a.q_lora_rank + static_cast<double>(a.q_lora_rank) * a.q_heads * a.head_dim
                                     : h * a.q_heads * a.head_dim;
  return q + 2.0 * h * a.kv_heads * a.head_dim + static_cast<double>(a.q_heads) * a.head_dim * h;
}

double ffn_params(const ModelArch& m, int size) { return (m.ffn.gated ? 3.0 : 2.0) * m.hidden_size * size; }

double ffn_params_per_layer(const ModelArch& m, bool active, int layer) {
  const auto& f = m.ffn;
  const bool dense = !f.is_moe() || std::find(f.dense_layers.begin(), f.dense_layers.end(), layer) != f.dense_layers.end();
  if (dense) return ffn_params(m, f.intermediate_size);
  const int shared_size = f.shared_expert_intermediate_size > 0 ? f.shared_expert_intermediate_size : f.expert_intermediate_size;
  const double experts = active ? f.experts_per_token : f.routed_experts;
  return experts * ffn_params(m, f.expert_intermediate_size) + f.shared_experts * ffn_params(m, shared_size) +
         (active ? 0.0 : static_cast<double>(m.hidden_size) * f.routed_experts);
}

double count(const ModelArch& m, bool active) {
  double total = static_cast<double>(m.vocab_size) * m.hidden_size * (m.tied_embeddings ? 1.0 : 2.0);
  for (int layer = 0; layer < m.layers; ++layer) total += attention_params_per_layer(m) + ffn_params_per_layer(m, active, layer);
  return total;
}
}  // namespace

double SimpleCosts::parameters(const ModelArch& m) { return count(m, false); }
double SimpleCosts::active_parameters(const ModelArch& m) { return count(m, true); }

double SimpleCosts::decode_iteration_s(const ModelArch& m, const HardwareSpec& card, int tp, Precision weights) {
  return parameters(m) * bytes_per_element(weights) / tp / (card.mem_bw_bytes_per_s * kBandwidthEfficiency);
}

double SimpleCosts::prefill_s(const ModelArch& m, const HardwareSpec& card, int tp, double tokens) {
  return 2.0 * active_parameters(m) * tokens / tp / (bf16_peak(card) * kPrefillEfficiency);
}

double SimpleCosts::train_s(const ModelArch& m, const HardwareSpec& card, int gpus, double tokens, int extra_forwards) {
  const double flops = (6.0 + 2.0 * extra_forwards) * active_parameters(m) * tokens;
  return flops / gpus / (bf16_peak(card) * kTrainEfficiency);
}

}  // namespace rlsim
