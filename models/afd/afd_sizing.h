// Attention-FFN disaggregation (AFD) sizing, after Step-3 (StepFun, arXiv 2507.19427 §5) and
// MegaScale-Infer (ByteDance, arXiv 2504.02263): attention and FFN run on different GPUs and swap
// activations every layer in a 3-stage pipeline (attention / transfer / FFN) of ping-pong
// micro-batches, so each stage gets TPOT/3 for all layers together.
//  - Network: per token per layer the transfer moves 3 × hidden bytes (8-bit dispatch to the FFN,
//    16-bit combine back) over one FFN node's total NIC bandwidth (all NICs of an 8-GPU node), so
//    batch × 3·hidden × layers / node_bw ≤ TPOT/3 gives the largest batch the network allows.
//  - FFN: with 8-bit weights each expert weight byte serves 2 × (batch × sparsity) FLOPs, so the
//    FFN is compute-bound once batch ≥ peak / (2 × bandwidth × sparsity): the smallest useful batch.
//  - Together: the minimum MoE sparsity a card can serve at the target TPOT is the one at which
//    the smallest useful batch equals the largest batch the network allows.
#pragma once

#include "models/hardware.h"
#include "models/model_arch.h"

namespace rlsim {

struct AfdOptions {
  double tpot_s = 0.05;                     ///< target time per output token
  int gpus_per_node = 8;                    ///< GPUs (and NICs) per FFN node
  double dispatch_bytes_per_element = 1.0;  ///< 8-bit activations to the FFN
  double combine_bytes_per_element = 2.0;   ///< 16-bit results back
  double weight_bytes_per_element = 1.0;    ///< 8-bit FFN weights
};

struct AfdLimits {
  double stage_budget_s = 0.0;            ///< TPOT / 3, for all layers
  double node_network_bytes_per_s = 0.0;  ///< gpus_per_node × NIC bandwidth per GPU
  double max_batch_network = 0.0;         ///< largest token batch the network moves within the budget
  double min_batch_ffn = 0.0;             ///< smallest token batch that keeps the FFN compute-bound
  double min_sparsity = 0.0;              ///< least MoE sparsity the card serves at this TPOT
  double model_sparsity = 0.0;            ///< the model's MoE sparsity (1 for dense)
  /// True when the model's sparsity is at least the minimum: some batch is both network-feasible
  /// and FFN compute-bound.
  bool feasible() const { return model_sparsity >= min_sparsity; }
};

/// AFD limits of `arch`'s FFN on `card` (FFN side), with the card's fp8 peak where it has one,
/// else bf16 (as the decode-cost accounting). Requires tpot_s > 0 and a card with a NIC.
AfdLimits afd_limits(const ModelArch& arch, const HardwareSpec& card, const AfdOptions& options = {});

}  // namespace rlsim
