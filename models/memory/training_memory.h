// Memory of one training GPU under DP × TP × PP with ZeRO/FSDP sharding and activation
// recomputation, for mixed-precision Adam:
//  - model states (Rajbhandari et al. 2020, "ZeRO", arXiv 1910.02054 §3.1 and §5): 2 bytes of bf16
//    weight and 2 (bf16) or 4 (fp32) of gradient per parameter plus K = 12 of fp32 master weight,
//    momentum and variance; ZeRO-1 shards the 12 over DP, ZeRO-2 also the gradients, ZeRO-3 (FSDP)
//    the weights too. With fp32 gradients and ZeRO-1 this is Megatron-LM's distributed optimizer,
//    6 + 12/d bytes per parameter (Megatron-Core docs, "Distributed Optimizer"). Parameters per GPU
//    are the model over TP × PP (experts split over TP, as the timing model).
//  - activations per layer of a micro-batch of b sequences of s tokens (Korthikanti et al. 2022,
//    "Reducing Activation Recomputation in Large Transformer Models", arXiv 2205.05198, Table 2):
//    s·b·h·34/t with sequence parallelism, s·b·h·(10 + 24/t) without it; the 34 counts the two
//    one-byte dropout masks after attention and MLP, so 32 without dropout. The attention scores,
//    5·a·s²·b/t bytes (softmax output 2, dropout mask 1, dropout output 2; 2 without dropout), are
//    stored only by an unfused attention without recomputation: flash attention never stores
//    them, selective recomputation recomputes them.
//    Full recomputation keeps each layer's input (2·s·b·h/t, /1 without sequence parallelism) plus
//    one layer rematerialised during its backward. Under 1F1B the first stage holds pp
//    micro-batches of its L/pp layers: L layers' worth (§4.2.3). Plus the logits of the
//    micro-batch over the vocabulary, split over TP: the output layer's bf16 logits and the fp32
//    copy the loss is computed on (Korthikanti count the fp32 4·s·b·v/t; the bf16 2·s·b·v/t are
//    still referenced while the loss runs, as in Megatron-LM's GPT model), 6·s·b·v/t.
//  - RL's frozen reference model (bf16 weights, sharded like the policy's) where the algorithm
//    keeps one, a PPO critic (model states and activations again), and optimizer states offloaded
//    to host memory where declared.
#pragma once

#include <string>
#include <vector>

#include "models/hardware.h"
#include "models/model_arch.h"
#include "models/named_enum.h"

namespace rlsim {

/// `training.sharding`: none, ZeRO-1 (optimizer states), ZeRO-2 (+ gradients), ZeRO-3 = FSDP (+ weights).
#define RLSIM_SHARDINGS(X) X(none) X(zero1) X(zero2) X(zero3)
RLSIM_NAMED_ENUM(Sharding, RLSIM_SHARDINGS)

/// `training.recompute`: activation recomputation (Korthikanti et al. 2022).
#define RLSIM_RECOMPUTES(X) X(none) X(selective) X(full)
RLSIM_NAMED_ENUM(Recompute, RLSIM_RECOMPUTES)

/// `training.attention_backend`: flash (FlashAttention, cuDNN fused: scores never stored) or
/// unfused (softmax of the materialised scores, kept for backward).
#define RLSIM_ATTENTION_BACKENDS(X) X(flash) X(unfused)
RLSIM_NAMED_ENUM(AttentionBackend, RLSIM_ATTENTION_BACKENDS)

struct TrainingLayout {
  int dp = 1, tp = 1, pp = 1;
  Sharding sharding = Sharding::zero1;
  Recompute recompute = Recompute::selective;
  double sequence_tokens = 4096;  ///< tokens of one sequence (the attention span)
  int micro_batch_sequences = 1;  ///< sequences in one micro-batch
  bool sequence_parallel = true;  ///< activations between TP regions split over TP
  AttentionBackend attention = AttentionBackend::flash;
  bool dropout = false;                 ///< dropout layers keep their masks for backward
  double gradient_bytes_per_param = 2;  ///< 2 (bf16) or 4 (fp32, Megatron's and FSDP2's default)
  bool offload_optimizer = false;       ///< fp32 master weights and Adam moments in host memory
  int reference_models = 1;             ///< frozen bf16 copies beside the policy (GRPO/PPO's reference)
  int trained_models = 1;               ///< models trained (PPO: actor and critic)

  double micro_batch_tokens() const { return sequence_tokens * micro_batch_sequences; }
};

struct TrainingMemory {
  double capacity_bytes = 0.0;    ///< one card's memory
  double weight_bytes = 0.0;      ///< bf16 weights of the trained models on one GPU
  double gradient_bytes = 0.0;    ///< bf16 gradients on one GPU
  double optimizer_bytes = 0.0;   ///< fp32 master weights and Adam moments on one GPU
  double reference_bytes = 0.0;   ///< frozen reference weights on one GPU
  double activation_bytes = 0.0;  ///< activations the first pipeline stage holds, logits included
  double total_bytes() const {
    return weight_bytes + gradient_bytes + optimizer_bytes + reference_bytes + activation_bytes;
  }
  double headroom_bytes() const { return capacity_bytes - total_bytes(); }
  bool fits() const { return total_bytes() <= capacity_bytes; }
};

/// Model-state bytes per GPU (weights + gradients + optimizer) of `params` parameters over the
/// layout's TP × PP and DP sharding, mixed-precision Adam (16 or 18 bytes per parameter unsharded).
double model_state_bytes_per_gpu(double params, const TrainingLayout& layout);
/// Activation bytes of one layer for one micro-batch on one GPU (Korthikanti et al. Table 2).
double activation_bytes_per_layer(const ModelArch& model, const TrainingLayout& layout);
/// Every term for `model` on `card`.
TrainingMemory training_memory(const ModelArch& model, const HardwareSpec& card,
                               const TrainingLayout& layout);

/// Changes to a layout that does not fit that make it fit, smallest first, each as the scenario
/// field and value to write ("sharding: zero3", "recompute: full", the largest
/// "micro_batch_sequences: 2" that fits, "tp: 4" with dp adjusted to keep the GPU count; TP up to
/// `max_tp`). Empty when the layout fits or nothing tried fits.
std::vector<std::string> training_memory_fixes(const ModelArch& model, const HardwareSpec& card,
                                               const TrainingLayout& layout, int max_tp);

}  // namespace rlsim
