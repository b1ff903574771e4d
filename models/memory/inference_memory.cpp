// Per-GPU memory of an inference instance and the KV capacity that follows (see inference_memory.h).
#include "models/memory/inference_memory.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "models/afd/afd_stages.h"
#include "models/arch_params.h"

namespace rlsim {
namespace {

InferenceMemory with_kv(InferenceMemory m, int gpus_sharing_tokens) {
  m.kv_free_bytes = m.capacity_bytes - m.weight_bytes - m.reserve_bytes;
  m.kv_capacity_tokens = m.fits() ? gpus_sharing_tokens * m.kv_free_bytes / m.kv_bytes_per_token : 0.0;
  return m;
}

/// Layers of stage `stage` when `layers` split into `pp` consecutive stages, the first
/// `layers mod pp` stages one layer more than the rest.
int stage_layers(int layers, int pp, int stage) { return layers / pp + (stage < layers % pp ? 1 : 0); }

/// Parameters of the heaviest of `pp` stages: its layers, the embedding on the first stage, the
/// lm_head (a tied one's own copy) and the final norm on the last.
double heaviest_stage_params(const ModelArch& model, int pp) {
  const double head = lm_head_params(model) > 0.0 ? lm_head_params(model) : embedding_params(model);
  double heaviest = 0.0;
  int first = 0;
  for (int stage = 0; stage < pp; ++stage) {
    const int count = stage_layers(model.layers, pp, stage);
    double params = 0.0;
    for (int layer = first; layer < first + count; ++layer) params += layer_params(model, layer);
    if (stage == 0) params += embedding_params(model);
    if (stage == pp - 1) params += head + model.hidden_size;
    heaviest = std::max(heaviest, params);
    first += count;
  }
  return heaviest;
}

}  // namespace

double InferenceMemory::sequences(double context_tokens) const {
  assert(context_tokens > 0.0 && "a sequence holds at least one token");
  return std::floor(kv_capacity_tokens / context_tokens);
}

double kv_bytes_per_token_per_gpu(const ModelArch& model, Precision kv, int tp) {
  assert(tp >= 1 && "a TP group has at least one GPU");
  const AttentionConfig& a = model.attention;
  if (a.kind == AttentionKind::mla) return kv_bytes_per_token(model, kv);
  const int heads_per_gpu = std::max(1, (a.kv_heads + tp - 1) / tp);
  return model.layers * 2.0 * heads_per_gpu * a.head_dim * bytes_per_element(kv);
}

InferenceMemory tp_instance_memory(const ModelArch& model, const HardwareSpec& card, int tp, int pp,
                                   Precision weights, Precision kv, double reserve_fraction) {
  assert(pp >= 1 && pp <= model.layers && "every pipeline stage holds at least one layer");
  InferenceMemory m;
  m.capacity_bytes = card.mem_capacity_bytes;
  m.reserve_bytes = reserve_fraction * card.mem_capacity_bytes;
  m.kv_bytes_per_token = kv_bytes_per_token_per_gpu(model, kv, tp);
  if (pp == 1) {
    m.weight_bytes = weight_bytes(model, weights) / tp;
  } else {
    m.weight_bytes = heaviest_stage_params(model, pp) * bytes_per_element(weights) / tp;
    m.kv_bytes_per_token *= static_cast<double>(stage_layers(model.layers, pp, 0)) / model.layers;
  }
  return with_kv(m, 1);  // every GPU of the group holds its slice of every token
}

InferenceMemory afd_attention_memory(const ModelArch& model, const HardwareSpec& card, int attention_gpus,
                                     Precision weights, Precision kv, double reserve_fraction) {
  InferenceMemory m;
  m.capacity_bytes = card.mem_capacity_bytes;
  m.weight_bytes = afd_attention_weight_bytes(model, weights);
  m.reserve_bytes = reserve_fraction * card.mem_capacity_bytes;
  m.kv_bytes_per_token = kv_bytes_per_token(model, kv);
  return with_kv(m, attention_gpus);  // each GPU holds the whole KV of its own sequences
}

double afd_ffn_memory_fraction(const ModelArch& model, const HardwareSpec& card, int ffn_gpus, int ffn_tp,
                               Precision weights, double reserve_fraction) {
  return afd_ffn_weight_bytes(model, ffn_gpus, ffn_tp, weights) / card.mem_capacity_bytes + reserve_fraction;
}

int smallest_fitting_tp(const ModelArch& model, const HardwareSpec& card, int max_tp, Precision weights,
                        Precision kv, double reserve_fraction) {
  for (int tp = 1; tp <= max_tp; tp *= 2) {
    if (tp_instance_memory(model, card, tp, 1, weights, kv, reserve_fraction).fits()) return tp;
  }
  return 0;
}

int smallest_fitting_pp(const ModelArch& model, const HardwareSpec& card, int tp, Precision weights,
                        Precision kv, double reserve_fraction) {
  for (int pp = 1; pp <= model.layers; ++pp) {
    if (tp_instance_memory(model, card, tp, pp, weights, kv, reserve_fraction).fits()) return pp;
  }
  return 0;
}

}  // namespace rlsim
