// Step-3 decode cost per 1M tokens (see decode_cost.h).
#include "models/review/decode_price.h"

#include <algorithm>
#include <cassert>

#include "models/cost/roofline.h"

namespace rlsim {

double usd_per_flop(const HardwareSpec& card) {
  return card.usd_per_hour / 3600.0 / compute_peak(card, decode_cost_precision(card));
}

double usd_per_byte(const HardwareSpec& card) { return card.usd_per_hour / 3600.0 / card.mem_bw_bytes_per_s; }

DecodePricePerMillion decode_price_per_million(const DecodeTokenCost& t, const HardwareSpec& card) {
  const double flop = usd_per_flop(card), byte = usd_per_byte(card);
  DecodePricePerMillion cost;
  cost.attention_usd = 1e6 * (std::max(t.attention_flops * flop, t.kv_bytes * byte) + t.linear_flops * flop);
  cost.ffn_usd = 1e6 * t.ffn_flops * flop;
  return cost;
}

AfdPairing cheapest_afd_pairing(const DecodeTokenCost& per_token, const std::vector<HardwareSpec>& cards) {
  assert(!cards.empty() && "pairing needs at least one card");
  AfdPairing best;
  double attention = 0.0, ffn = 0.0;
  for (const HardwareSpec& card : cards) {
    const DecodePricePerMillion c = decode_price_per_million(per_token, card);
    if (best.attention_card.empty() || c.attention_usd < attention) {
      attention = c.attention_usd;
      best.attention_card = card.name;
    }
    if (best.ffn_card.empty() || c.ffn_usd < ffn) {
      ffn = c.ffn_usd;
      best.ffn_card = card.name;
    }
  }
  best.cost.attention_usd = attention;
  best.cost.ffn_usd = ffn;
  return best;
}

}  // namespace rlsim
