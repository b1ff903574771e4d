// Training-step cost of one GPU in a DP × TP × PP layout: forward, backward (≈ 2× forward: the
// gradients with respect to activations and to weights each cost one forward's FLOPs; Narayanan
// et al., arXiv 2104.04473 §5.1), optional activation recomputation (one more forward), the
// optimizer update (memory-bound over the GPU's parameter shard) and the gradient bytes each
// data-parallel rank all-reduces. Compute only: the engine adds the gradient all-reduce, TP
// all-reduces and pipeline bubbles from its links and schedule.
#pragma once

#include <cstdint>

#include "models/cost/cost_model.h"
#include "models/hardware.h"
#include "models/model_arch.h"
#include "models/precision.h"

namespace rlsim {

struct TrainingOptions {
  Precision compute = Precision::bf16;    ///< GEMM precision of forward and backward
  Precision gradients = Precision::bf16;  ///< precision of the gradients all-reduced across DP
  int64_t sequence_length = 4096;         ///< tokens per training sequence (attention span)
  bool recompute_activations = false;     ///< full activation checkpointing: +1 forward in backward
  /// Bytes the optimizer moves per parameter: mixed-precision Adam reads and writes the fp32
  /// master weight, m and v (24), reads the bf16 gradient (2) and writes the bf16 weight (2).
  double optimizer_bytes_per_param = 28.0;
  /// FLOPs per parameter of the update (Adam: moments, bias correction, sqrt, divide, decay).
  double optimizer_flops_per_param = 12.0;
};

struct TrainingStepTime {
  double forward_s = 0.0;           ///< forward over this GPU's layers and tokens
  double backward_s = 0.0;          ///< backward (2× forward, +1 forward when recomputing)
  double optimizer_s = 0.0;         ///< optimizer update of this GPU's parameter shard
  double gradient_bytes = 0.0;      ///< gradient bytes this GPU all-reduces with its DP peers
  double params_per_gpu = 0.0;      ///< parameters held by one GPU (total / (TP × PP))
  double tokens_per_gpu = 0.0;      ///< tokens one DP rank processes in the step
  double tp_allreduce_bytes = 0.0;  ///< bytes this GPU all-reduces within TP in forward + backward

  double compute_seconds() const { return forward_s + backward_s + optimizer_s; }
};

/// Cost of one optimizer step over `tokens` tokens (the global batch, all DP ranks together) with
/// `dp` data-parallel replicas, each a `tp` × `pp` model-parallel group. Layers split evenly over
/// PP stages; GEMMs and experts split over TP (EP = TP). Requires tokens ≥ dp, dp, tp, pp ≥ 1.
TrainingStepTime training_step_time(const ModelArch& arch, const HardwareSpec& card, const CostModel& cost,
                                    int64_t tokens, int dp, int tp, int pp,
                                    const TrainingOptions& options = {});

}  // namespace rlsim
