// Training preference from ridge points.
#include "models/review/phase_preference.h"

#include <algorithm>
#include <cstdio>

#include "models/cost/roofline.h"

namespace rlsim {

PhasePreference phase_preference(const std::vector<HardwareSpec>& cards, Precision precision) {
  PhasePreference p;
  for (const auto& card : cards) {
    CardAffinity a;
    a.card = card.name;
    a.ridge_flop_per_byte = effective_ridge_point(card, precision);
    if (card.usd_per_hour > 0.0) {
      a.tflops_per_usd_hour = compute_peak(card, precision) / 1e12 / card.usd_per_hour;
      a.mem_tbps_per_usd_hour = card.mem_bw_bytes_per_s / 1e12 / card.usd_per_hour;
    }
    p.cards.push_back(a);
  }
  if (p.cards.empty()) return p;
  auto by_ridge = [](const CardAffinity& a, const CardAffinity& b) {
    return a.ridge_flop_per_byte < b.ridge_flop_per_byte;
  };
  const auto [low, high] = std::minmax_element(p.cards.begin(), p.cards.end(), by_ridge);
  if (high->ridge_flop_per_byte <= low->ridge_flop_per_byte * 1.05) {
    p.reason = "the cards have (nearly) the same ridge point: no phase prefers one over another";
    return p;
  }
  p.train_card = high->card;
  p.rollout_card = low->card;
  char text[256];
  std::snprintf(
      text, sizeof text,
      "%s has the higher ridge (%.0f FLOP/B): compute-rich, it should train; %s has the lower ridge "
      "(%.0f FLOP/B): bandwidth-rich per FLOP, it should decode (roll out)",
      high->card.c_str(), high->ridge_flop_per_byte, low->card.c_str(), low->ridge_flop_per_byte);
  p.reason = text;
  return p;
}

}  // namespace rlsim
