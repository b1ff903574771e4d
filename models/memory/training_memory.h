// Memory of one training GPU under DP × TP × PP with ZeRO/FSDP sharding and activation
// recomputation, for mixed-precision Adam:
//  - model states (Rajbhandari et al. 2020, "ZeRO", arXiv 1910.02054 §3.1 and §5): 2 bytes of bf16
//    weight and 2 of gradient per parameter plus K = 12 of fp32 master weight, momentum and
//    variance; ZeRO-1 shards the 12 over DP, ZeRO-2 also the gradients, ZeRO-3 (FSDP) the weights
//    too. Parameters per GPU are the model over TP × PP (experts split over TP, as the timing model).
//  - activations per layer of a micro-batch of s tokens (Korthikanti et al. 2022, "Reducing
//    Activation Recomputation in Large Transformer Models", arXiv 2205.05198, Table 2, with
//    sequence parallelism when TP > 1): s·h·(34 + 5·a·s/h)/t bytes with no recomputation,
//    s·h·34/t with selective recomputation (the attention core), 2·s·h/t with full recomputation
//    (the layer input only, plus one layer rematerialised during its backward). Under 1F1B the
//    first stage holds pp micro-batches of its L/pp layers: L layers' worth (§4.2.3). Plus the
//    fp32 logits of the micro-batch over the vocabulary, split over TP (4·s·v/t).
//  - RL's frozen reference model (bf16 weights, sharded like the policy's), a PPO critic (model
//    states and activations again), and optimizer states offloaded to host memory where declared.
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

struct TrainingLayout {
  int dp = 1, tp = 1, pp = 1;
  Sharding sharding = Sharding::zero1;
  Recompute recompute = Recompute::selective;
  double micro_batch_tokens = 4096;  ///< tokens of one micro-batch (one packed sequence)
  bool offload_optimizer = false;    ///< fp32 master weights and Adam moments in host memory
  int reference_models = 1;          ///< frozen bf16 copies beside the policy (GRPO/PPO's reference)
  int trained_models = 1;            ///< models trained (PPO: actor and critic)
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
/// layout's TP × PP and DP sharding, mixed-precision Adam (16 bytes per parameter unsharded).
double model_state_bytes_per_gpu(double params, const TrainingLayout& layout);
/// Activation bytes of one layer for one micro-batch on one GPU (Korthikanti et al. Table 2).
double activation_bytes_per_layer(const ModelArch& model, const TrainingLayout& layout);
/// Every term for `model` on `card`.
TrainingMemory training_memory(const ModelArch& model, const HardwareSpec& card,
                               const TrainingLayout& layout);

/// Changes to a layout that does not fit that make it fit, smallest first, each as the scenario
/// field and value to write ("sharding: zero3", "recompute: full", "tp: 4" with dp adjusted to
/// keep the GPU count; TP up to `max_tp`). Empty when the layout fits or nothing tried fits.
std::vector<std::string> training_memory_fixes(const ModelArch& model, const HardwareSpec& card,
                                               const TrainingLayout& layout, int max_tp);

}  // namespace rlsim
