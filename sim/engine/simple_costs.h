// Simple phase costs for the foundation's RL loop: decode is memory-bound (weights read once per
// iteration), prefill and training compute-bound at fixed efficiencies. The cost-model layer
// (models/) replaces these with per-op rooflines and calibrated profiles.
#pragma once

#include "models/hardware.h"
#include "models/model_arch.h"
#include "models/precision.h"

namespace rlsim {

struct SimpleCosts {
  static constexpr double kBandwidthEfficiency = 0.8;
  static constexpr double kPrefillEfficiency = 0.5;
  static constexpr double kTrainEfficiency = 0.4;

  /// Parameters from the architecture (embeddings, attention, FFN; MoE counts all experts).
  static double parameters(const ModelArch& m);
  /// Parameters touched per token (MoE: top-k plus shared experts).
  static double active_parameters(const ModelArch& m);
  /// One decode iteration of a TP group: its weight shard read from HBM.
  static double decode_iteration_s(const ModelArch& m, const HardwareSpec& card, int tp, Precision weights);
  /// Prefill of `tokens` on a TP group.
  static double prefill_s(const ModelArch& m, const HardwareSpec& card, int tp, double tokens);
  /// Forward + backward (+ the algorithm's extra forward passes) of `tokens` over `gpus` GPUs.
  static double train_s(const ModelArch& m, const HardwareSpec& card, int gpus, double tokens, int extra_forwards);
};

}  // namespace rlsim
