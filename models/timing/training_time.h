// Training-step cost of one GPU in a DP × TP × PP layout: forward, backward (≈ 2× forward: the
// gradients with respect to activations and to weights each cost one forward's FLOPs; Narayanan
// et al., arXiv 2104.04473 §5.1), activation recomputation (full: one more forward; selective: the
// attention core again, Korthikanti et al. 2022), the optimizer update (memory-bound over the
// GPU's parameter shard), the bytes each data-parallel rank exchanges (gradient all-reduce, or
// ZeRO's reduce-scatter + all-gather, the same volume; ZeRO-3/FSDP also all-gathers the weights in
// forward and again in backward: Rajbhandari et al. 2020 §7) and the 1F1B pipeline bubble,
// (pp − 1)/m of the ideal time for m micro-batches (Narayanan et al. 2021 §2.2). A DP rank's
// tokens are packed into sequences of `sequence_length` (the dynamic batching / sequence packing
// of verl and OpenRLHF), one per micro-batch; or, given the step's sequences, each mini-batch split
// over the DP ranks with its slowest rank setting the time and each sequence's attention costing as
// its own length (models/timing/rank_balance.h). With a named attention kernel, the attention core
// runs at that kernel's measured forward and backward throughput, its backward 2.5× the forward's
// FLOPs (models/timing/attention_kernels.h). Within a TP group, Megatron's f/g operators
// all-reduce each micro-batch's activations twice per layer in forward and twice in backward
// (Shoeybi et al. 2019, §3; sequence parallelism's all-gathers and reduce-scatters move the same
// bytes, Korthikanti et al. 2022 §4.2.2), not overlapped with compute: they are priced here, per
// message, by the collective model or a profile's measured fit; an MoE layer pays the same two
// (expert parallelism's all-to-alls are not priced apart). The engine sends the DP bytes over its
// links.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "models/cost/cost_model.h"
#include "models/cost/profile.h"
#include "models/hardware.h"
#include "models/memory/training_memory.h"
#include "models/model_arch.h"
#include "models/precision.h"
#include "models/timing/attention_kernels.h"
#include "models/timing/collectives.h"
#include "models/timing/rank_balance.h"

namespace rlsim {

struct TrainingOptions {
  Precision compute = Precision::bf16;    ///< GEMM precision of forward and backward
  Precision gradients = Precision::bf16;  ///< precision of the gradients all-reduced across DP
  int64_t sequence_length = 4096;         ///< tokens per training sequence (attention span)
  Recompute recompute = Recompute::none;  ///< activation recomputation in backward
  Sharding sharding = Sharding::none;     ///< ZeRO stage (zero3 adds weight all-gathers)
  int mini_batches = 1;                   ///< optimizer steps the tokens are split into (PP bubble)
  /// Bytes the optimizer moves per parameter: mixed-precision Adam reads and writes the fp32
  /// master weight, m and v (24), reads the bf16 gradient (2) and writes the bf16 weight (2).
  double optimizer_bytes_per_param = 28.0;
  /// FLOPs per parameter of the update (Adam: moments, bias correction, sqrt, divide, decay).
  double optimizer_flops_per_param = 12.0;
  /// The link each GPU of a TP group all-reduces over (one direction) when no fit is given.
  LinkSpec tp_link{};
  /// A calibrated profile's measured all-reduce at this TP degree; null: a ring over `tp_link`.
  const CollectiveFit* tp_allreduce_fit = nullptr;
  /// The step's sequences, tokens each, in the order they finished. Empty: the tokens split evenly
  /// over the DP ranks as sequences of `sequence_length`. Given: each mini-batch (consecutive slices
  /// of equal count) is split over the ranks by `balance` and its slowest rank sets its time
  /// (models/timing/rank_balance.h); the log-prob passes split the whole step the same way; each
  /// sequence's attention costs as its own length (Σ L²), the rest as its tokens.
  std::vector<double> sequence_tokens;
  RankBalance balance = RankBalance::tokens;
  /// The attention kernel whose measured forward and backward throughput prices the attention core
  /// (models/timing/attention_kernels.h); none: the cost model prices it, backward twice forward.
  std::optional<AttentionKernel> attention_kernel;
};

struct TrainingStepTime {
  double forward_s = 0.0;       ///< forward over this GPU's layers and tokens (training passes)
  double forward_only_s = 0.0;  ///< one forward-only pass over the step (the log-prob passes)
  /// The slowest DP rank's training passes over the mean rank's (1: even, or no sequences given).
  double rank_imbalance = 1.0;
  double backward_s = 0.0;                ///< backward, recompute_s included
  double recompute_s = 0.0;               ///< forward work redone in backward (full or selective recompute)
  double optimizer_s = 0.0;               ///< optimizer update of this GPU's parameter shard
  double gradient_bytes = 0.0;            ///< gradient bytes this GPU all-reduces with its DP peers
  double weight_gather_bytes = 0.0;       ///< ZeRO-3: weight bytes all-gathered per step (forward + backward)
  double pipeline_bubble_fraction = 0.0;  ///< 1F1B idle time / ideal forward + backward: (pp − 1)/m
  double params_per_gpu = 0.0;            ///< parameters held by one GPU (total / (TP × PP))
  double tokens_per_gpu = 0.0;            ///< tokens one DP rank processes in the step
  double tp_allreduce_bytes = 0.0;        ///< bytes this GPU all-reduces within TP in forward + backward
  double tp_forward_s = 0.0;   ///< TP all-reduces of the forward pass (2 per layer and micro-batch)
  double tp_backward_s = 0.0;  ///< TP all-reduces of backward (2 per layer, 2 more if fully recomputed)

  /// One forward pass over this GPU's tokens, its TP all-reduces included (log-prob passes).
  double forward_pass_s() const { return forward_only_s + tp_forward_s; }
  /// Forward and backward over this GPU's tokens, TP all-reduces included, before the pipeline bubble.
  double training_pass_s() const { return forward_s + backward_s + tp_forward_s + tp_backward_s; }
  double compute_seconds() const { return forward_s + backward_s + optimizer_s; }
  /// Bytes this GPU sends to its DP peers per optimizer step over rings of `dp`: the gradient
  /// all-reduce (ZeRO-1/2's reduce-scatter + all-gather move as much), or under ZeRO-3 the
  /// gradients' reduce-scatter and the weights' all-gathers (1.5× as much: ZeRO §7).
  double dp_ring_bytes(int dp) const {
    if (dp <= 1) return 0.0;
    const double share = static_cast<double>(dp - 1) / dp;
    return weight_gather_bytes > 0.0 ? share * (gradient_bytes + weight_gather_bytes)
                                     : 2.0 * share * gradient_bytes;
  }
};

/// Cost of one optimizer step over `tokens` tokens (the global batch, all DP ranks together) with
/// `dp` data-parallel replicas, each a `tp` × `pp` model-parallel group. Layers split evenly over
/// PP stages; GEMMs and experts split over TP (EP = TP). With tp > 1, `options.tp_link` needs a
/// positive bandwidth unless `options.tp_allreduce_fit` is given. Requires tokens ≥ dp, dp, tp, pp ≥ 1.
TrainingStepTime training_step_time(const ModelArch& arch, const HardwareSpec& card, const CostModel& cost,
                                    int64_t tokens, int dp, int tp, int pp,
                                    const TrainingOptions& options = {});

}  // namespace rlsim
