// Memory of one inference instance per GPU: weights under tensor parallelism (experts split over
// the same GPUs: EP = TP) and pipeline parallelism (stages of consecutive layers), the KV cache per token as
// the attention design stores it, and a reserve for activations, workspace, CUDA graphs and the framework (a
// fraction of the card, as vLLM's gpu_memory_utilization 0.9 leaves 10%). What is left holds the KV cache:
// the instance's capacity in tokens and in sequences follows. One formula for the engine, `validate` and the
// AFD checks.
#pragma once

#include "models/hardware.h"
#include "models/model_arch.h"
#include "models/precision.h"

namespace rlsim {

struct InferenceMemory {
  double capacity_bytes = 0.0;      ///< one card's memory
  double weight_bytes = 0.0;        ///< weights held by one GPU
  double reserve_bytes = 0.0;       ///< activations, workspace, CUDA graphs, framework per GPU
  double kv_bytes_per_token = 0.0;  ///< KV one GPU stores per token of a sequence it serves
  double kv_free_bytes = 0.0;       ///< per GPU left for the KV cache (negative: does not fit)
  double kv_capacity_tokens = 0.0;  ///< tokens the whole instance holds (0 when it does not fit)
  double weights_and_reserve_bytes() const { return weight_bytes + reserve_bytes; }
  /// True when the weights and the reserve leave room for at least one token of KV.
  bool fits() const { return kv_free_bytes > 0.0; }
  /// Whole sequences of `context_tokens` the instance holds at once.
  double sequences(double context_tokens) const;
  /// Share of one GPU's memory used with `tokens` of KV on it (> 1: does not fit).
  double used_fraction(double tokens) const {
    return (weight_bytes + reserve_bytes + kv_bytes_per_token * tokens) / capacity_bytes;
  }
};

/// KV bytes one GPU of a TP group of `tp` stores per token: GQA/MHA heads split over TP and are
/// replicated once tp exceeds them (each GPU keeps at least one K/V head: vLLM, SGLang); MLA's
/// latent and MQA/MFA's single head are replicated on every TP rank (which is why SGLang serves
/// DeepSeek with data-parallel attention: lmsys.org/blog/2024-12-04-sglang-v0-4).
double kv_bytes_per_token_per_gpu(const ModelArch& model, Precision kv, int tp);

/// A replica of the whole model on `tp` × `pp` cards: `pp` pipeline stages of consecutive layers
/// (the first layers mod pp stages one layer more), each on `tp` cards (tensor parallel, experts
/// split over the same cards). The figures are the heaviest stage's: its layers' weights (MoE and
/// dense layers counted as they fall), the embedding on the first stage, the lm_head (a tied one's
/// own copy) on the last, and the KV of ceil(layers / pp) layers.
InferenceMemory tp_instance_memory(const ModelArch& model, const HardwareSpec& card, int tp, int pp,
                                   Precision weights, Precision kv, double reserve_fraction);
/// An AFD instance's attention side: `attention_gpus` data-parallel cards, each holding the
/// attention weights (models/afd/afd_stages.h) and the whole KV of its own sequences.
InferenceMemory afd_attention_memory(const ModelArch& model, const HardwareSpec& card, int attention_gpus,
                                     Precision weights, Precision kv, double reserve_fraction);
/// Share of an AFD FFN GPU's memory used by its expert weights (routed experts split over
/// `ffn_gpus`, shared experts and dense FFNs on each group of `ffn_tp`, sharded over it) and the
/// reserve (> 1: does not fit).
double afd_ffn_memory_fraction(const ModelArch& model, const HardwareSpec& card, int ffn_gpus, int ffn_tp,
                               Precision weights, double reserve_fraction);
/// The smallest TP (a power of two up to `max_tp`) at which a replica without pipeline parallelism
/// fits; 0 when none does.
int smallest_fitting_tp(const ModelArch& model, const HardwareSpec& card, int max_tp, Precision weights,
                        Precision kv, double reserve_fraction);
/// The smallest number of pipeline stages (up to the model's layers) at which a replica of `tp`
/// cards a stage fits; 0 when none does.
int smallest_fitting_pp(const ModelArch& model, const HardwareSpec& card, int tp, Precision weights,
                        Precision kv, double reserve_fraction);

}  // namespace rlsim
