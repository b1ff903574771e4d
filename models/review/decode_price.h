// Decode cost per 1M generated tokens on a card, in the accounting of the Step-3 paper (StepFun,
// arXiv 2507.19427 §4): a card's price buys FLOPs and bytes at its peak,
//   $/FLOP = price per card-hour / 3600 / peak FLOP/s   (fp8 peak where the card has one, else bf16)
//   $/byte = price per card-hour / 3600 / HBM bytes/s
//   attention = max(attention FLOPs × $/FLOP, KV bytes × $/byte) + linear FLOPs × $/FLOP
//   FFN       = FFN FLOPs × $/FLOP
// An attention-FFN-disaggregated (AFD) deployment pays the cheapest attention card plus the
// cheapest FFN card. These are lower bounds at 100% utilisation, for comparing designs and cards.
#pragma once

#include <string>
#include <vector>

#include "models/hardware.h"
#include "models/review/decode_accounting.h"

namespace rlsim {

struct DecodePricePerMillion {
  double attention_usd = 0.0;
  double ffn_usd = 0.0;
  double total_usd() const { return attention_usd + ffn_usd; }
};

/// USD per FLOP and per byte of a card under the accounting above.
double usd_per_flop(const HardwareSpec& card);
double usd_per_byte(const HardwareSpec& card);

/// Cost of 1M tokens decoded on `card` with the per-token figures `per_token`.
DecodePricePerMillion decode_price_per_million(const DecodeTokenCost& per_token, const HardwareSpec& card);

/// The cheapest attention card and the cheapest FFN card among `cards`, and what the pair costs.
struct AfdPairing {
  std::string attention_card;
  std::string ffn_card;
  DecodePricePerMillion cost;
};
/// Requires at least one card.
AfdPairing cheapest_afd_pairing(const DecodeTokenCost& per_token, const std::vector<HardwareSpec>& cards);

}  // namespace rlsim
