// Per-GPU training memory (see training_memory.h for the formulas and their sources).
#include "models/memory/training_memory.h"

#include <algorithm>
#include <cassert>

#include "models/arch_params.h"

namespace rlsim {
namespace {

constexpr double kWeightBytes = 2.0;      // bf16 weight
constexpr double kOptimizerBytes = 12.0;  // fp32 master weight, Adam momentum and variance (ZeRO's K)
constexpr double kLogitBytes = 6.0;       // bf16 logits and their fp32 copy, per token and vocabulary entry

struct ModelStates {
  double weights, gradients, optimizer;
};

ModelStates model_states(double params_per_gpu, const TrainingLayout& l) {
  const double dp = l.dp;
  ModelStates s{kWeightBytes * params_per_gpu, l.gradient_bytes_per_param * params_per_gpu,
                kOptimizerBytes * params_per_gpu};
  if (l.sharding >= Sharding::zero1) s.optimizer /= dp;
  if (l.sharding >= Sharding::zero2) s.gradients /= dp;
  if (l.sharding >= Sharding::zero3) s.weights /= dp;
  if (l.offload_optimizer) s.optimizer = 0.0;
  return s;
}

}  // namespace

double model_state_bytes_per_gpu(double params, const TrainingLayout& layout) {
  const ModelStates s = model_states(params / (static_cast<double>(layout.tp) * layout.pp), layout);
  return s.weights + s.gradients + s.optimizer;
}

double activation_bytes_per_layer(const ModelArch& model, const TrainingLayout& layout) {
  const double s = layout.sequence_tokens, b = layout.micro_batch_sequences, h = model.hidden_size;
  const double t = layout.tp, a = model.attention.q_heads;
  // Korthikanti et al. Table 2: 24 s·b·h split over TP in any case; the layer-norm inputs, the
  // inputs of the attention and MLP blocks and the dropout masks split only under sequence
  // parallelism (or without TP).
  const double replicated = layout.dropout ? 10.0 : 8.0;
  const double sbh = s * b * h;
  const double full_layer_input = 2.0 * sbh / (layout.sequence_parallel ? t : 1.0);
  const double kept = sbh * (layout.sequence_parallel ? (replicated + 24.0) / t : replicated + 24.0 / t);
  const double scores = (layout.dropout ? 5.0 : 2.0) * a * s * s * b / t;
  const bool stores_scores = layout.attention == AttentionBackend::unfused;
  switch (layout.recompute) {
    case Recompute::none: return kept + (stores_scores ? scores : 0.0);
    case Recompute::selective: return kept;
    case Recompute::full: return full_layer_input;
  }
  return 0.0;
}

TrainingMemory training_memory(const ModelArch& model, const HardwareSpec& card,
                               const TrainingLayout& layout) {
  assert(layout.dp >= 1 && layout.tp >= 1 && layout.pp >= 1 && layout.sequence_tokens > 0.0 &&
         layout.micro_batch_sequences >= 1 && "a training layout has positive degrees and tokens");
  TrainingMemory m;
  m.capacity_bytes = card.mem_capacity_bytes;
  const double params_per_gpu = total_params(model) / (static_cast<double>(layout.tp) * layout.pp);
  const ModelStates states = model_states(params_per_gpu, layout);
  m.weight_bytes = layout.trained_models * states.weights;
  m.gradient_bytes = layout.trained_models * states.gradients;
  m.optimizer_bytes = layout.trained_models * states.optimizer;
  const double reference_share = layout.sharding == Sharding::zero3 ? layout.dp : 1.0;
  m.reference_bytes = layout.reference_models * kWeightBytes * params_per_gpu / reference_share;
  // 1F1B: the first stage holds pp micro-batches of its layers/pp layers.
  double layers_held = model.layers;
  double activations = layers_held * activation_bytes_per_layer(model, layout);
  if (layout.recompute == Recompute::full) {
    // The layer being rematerialised in backward holds all it stores without recomputation.
    TrainingLayout whole = layout;
    whole.recompute = Recompute::none;
    activations += activation_bytes_per_layer(model, whole);
  }
  const double logits = kLogitBytes * layout.micro_batch_tokens() * model.vocab_size / layout.tp;
  m.activation_bytes = layout.trained_models * (activations + logits);
  return m;
}

std::vector<std::string> training_memory_fixes(const ModelArch& model, const HardwareSpec& card,
                                               const TrainingLayout& layout, int max_tp) {
  std::vector<std::string> fixes;
  if (training_memory(model, card, layout).fits()) return fixes;
  for (Sharding sharding : {Sharding::zero1, Sharding::zero2, Sharding::zero3}) {
    if (sharding <= layout.sharding) continue;
    TrainingLayout changed = layout;
    changed.sharding = sharding;
    if (training_memory(model, card, changed).fits()) {
      fixes.push_back("sharding: " + std::string(enum_name(sharding)));
      break;
    }
  }
  if (layout.recompute != Recompute::full) {
    TrainingLayout changed = layout;
    changed.recompute = Recompute::full;
    if (training_memory(model, card, changed).fits()) fixes.emplace_back("recompute: full");
  }
  for (int sequences = layout.micro_batch_sequences / 2; sequences >= 1; sequences /= 2) {
    TrainingLayout changed = layout;
    changed.micro_batch_sequences = sequences;
    if (training_memory(model, card, changed).fits()) {
      fixes.push_back("micro_batch_sequences: " + std::to_string(sequences));
      break;
    }
  }
  const int gpus = layout.dp * layout.tp;
  for (int tp = layout.tp * 2; tp <= max_tp && gpus % tp == 0; tp *= 2) {
    TrainingLayout changed = layout;
    changed.tp = tp;
    changed.dp = gpus / tp;
    if (training_memory(model, card, changed).fits()) {
      fixes.push_back("tp: " + std::to_string(tp) + " (dp " + std::to_string(changed.dp) + ")");
      break;
    }
  }
  return fixes;
}

}  // namespace rlsim
