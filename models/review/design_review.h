// The co-design review of a model on candidate cards, as a model-design meeting wants it: per card
// the ridge, each decode module's arithmetic intensity and bound, the Step-3 cost per 1M tokens
// (attention, FFN), the AFD batch limits and the least MoE sparsity the card serves at the TPOT
// target; the cards recommended for attention and for FFN; quantisation side by side; and a
// plain-language verdict. Built from decode_accounting, decode_cost and afd; no I/O here — the
// `rlsim review` command prints it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "models/afd/afd_sizing.h"
#include "models/cost/roofline.h"
#include "models/hardware.h"
#include "models/model_arch.h"
#include "models/review/decode_accounting.h"
#include "models/review/decode_price.h"

namespace rlsim {

struct ReviewOptions {
  double context = 4096;               ///< tokens in the KV cache per sequence
  double tpot_s = 0.05;                ///< target time per output token
  Precision kv = Precision::fp8;       ///< KV-cache precision (Step-3's accounting uses 8 bit)
  Precision weights = Precision::fp8;  ///< weight precision of the linear layers and experts
  int gpus_per_node = 8;               ///< GPUs (NICs) per FFN node for AFD
};

struct ModuleAssessment {
  std::string name;                   ///< "attention", "attention_linear", "ffn"
  double arithmetic_intensity = 0.0;  ///< FLOP/byte
  Bound bound = Bound::memory;
  double compute_utilisation = 0.0;  ///< attainable / peak = min(1, AI / ridge)
};

struct CardReview {
  std::string card;
  Precision compute_precision = Precision::bf16;  ///< fp8 where the card has it, else bf16
  double ridge = 0.0;                             ///< FLOP/byte at compute_precision
  /// Modules at a decode batch of `afd.max_batch_network` tokens (the largest the TPOT allows):
  /// attention core (batch-independent), attention projections and FFN (weight-dominated).
  std::vector<ModuleAssessment> modules;
  DecodePricePerMillion cost_per_1m_tokens;
  AfdLimits afd;
};

/// One precision used for the KV cache and for the weights, every card side by side.
struct QuantisationRow {
  Precision precision = Precision::bf16;
  double kv_bytes_per_token = 0.0;  ///< at the review's context
  double attention_arithmetic_intensity = 0.0;
  std::map<std::string, Bound> attention_bound;  ///< per card
  std::map<std::string, double> ffn_min_batch;   ///< per card: tokens for a compute-bound FFN
};

struct DesignReview {
  std::string model;
  ReviewOptions options;
  DecodeTokenCost per_token;
  double moe_sparsity = 1.0;
  std::vector<CardReview> cards;   ///< in the order given
  std::string attention_card;      ///< cheapest attention
  std::string ffn_card;            ///< cheapest FFN that is AFD-feasible (else cheapest)
  DecodePricePerMillion afd_cost;  ///< the recommended pair
  std::string best_single_card;    ///< cheapest card running both parts
  DecodePricePerMillion best_single_cost;
  std::vector<QuantisationRow> quantisation;  ///< bf16, fp8, int4, and fp4 when a card has an FP4 peak
  std::vector<std::string> verdict;           ///< plain-language sentences
};

/// Reviews `arch` on `cards` (at least one). Cards need a price, a bandwidth and a NIC.
DesignReview review_design(const ModelArch& arch, const std::vector<HardwareSpec>& cards,
                           const ReviewOptions& options = {});

}  // namespace rlsim
