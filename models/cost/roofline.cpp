// Ridge points, attainable performance and the weighted roofline of a mixed pool.
#include "models/cost/roofline.h"

#include <algorithm>
#include <cassert>

namespace rlsim {

std::string_view to_string(Bound b) { return b == Bound::memory ? "memory" : "compute"; }

Precision effective_compute_precision(const HardwareSpec& card, Precision p) {
  if (p != Precision::int4 && card.peak(p)) return p;
  if (card.peak(Precision::bf16)) return Precision::bf16;
  return Precision::fp16;
}

double compute_peak(const HardwareSpec& card, Precision p) {
  auto peak = card.peak(effective_compute_precision(card, p));
  assert(peak && "a catalog card always has a bf16 or fp16 peak");
  return peak ? *peak : 0.0;
}

Precision decode_cost_precision(const HardwareSpec& card) {
  return card.peak(Precision::fp8) ? Precision::fp8 : effective_compute_precision(card, Precision::bf16);
}

std::optional<double> ridge_point(const HardwareSpec& card, Precision p) {
  auto peak = card.peak(p);
  if (!peak || card.mem_bw_bytes_per_s <= 0) return std::nullopt;
  return *peak / card.mem_bw_bytes_per_s;
}

double effective_ridge_point(const HardwareSpec& card, Precision p) {
  assert(card.mem_bw_bytes_per_s > 0 && "a card needs a memory bandwidth");
  return compute_peak(card, p) / card.mem_bw_bytes_per_s;
}

double attainable_flops(double peak_flops, double mem_bw_bytes_per_s, double ai) {
  return std::min(peak_flops, ai * mem_bw_bytes_per_s);
}

Bound classify(double ai, double ridge) { return ai < ridge ? Bound::memory : Bound::compute; }

double WeightedRoofline::attainable(double ai) const {
  double total = 0.0;
  for (const PoolMember& m : members) {
    total += m.count * attainable_flops(compute_peak(m.card, precision), m.card.mem_bw_bytes_per_s, ai);
  }
  return total;
}

WeightedRoofline weighted_roofline(const std::vector<PoolMember>& members, Precision p) {
  WeightedRoofline pool;
  pool.members = members;
  pool.precision = p;
  for (const PoolMember& m : members) {
    assert(m.count > 0 && "a pool member needs at least one card");
    pool.peak_flops += m.count * compute_peak(m.card, p);
    pool.mem_bw_bytes_per_s += m.count * m.card.mem_bw_bytes_per_s;
  }
  return pool;
}

}  // namespace rlsim
