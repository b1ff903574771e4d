// Rooflines: a card's ridge point per precision, attainable FLOP/s at an arithmetic intensity,
// memory- vs compute-bound classification, and the weighted roofline of a mixed pool of cards.
// Arithmetic intensity (AI) = FLOPs per byte moved to/from device memory; ridge = peak FLOP/s ÷
// memory bandwidth (Williams, Waterman, Patterson, "Roofline", CACM 2009). Below the ridge an op
// is memory-bound, at or above it compute-bound.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "models/hardware.h"
#include "models/precision.h"

namespace rlsim {

enum class Bound { memory, compute };
std::string_view to_string(Bound b);

/// The peak FLOP/s a card delivers for math in precision `p`: its own tensor-core path when it has
/// one, else the 16-bit path the kernel would upcast to (bf16, then fp16). int4 weights are
/// dequantised and multiplied in 16 bit (W4A16) on every catalog card, so int4 uses the bf16 peak;
/// fp4 (NVFP4) uses the fp4 peak of a card that lists one (Blackwell), else 16 bit as well.
double compute_peak(const HardwareSpec& card, Precision p);
/// The precision whose peak `compute_peak` uses (e.g. fp8 on A800 -> bf16).
Precision effective_compute_precision(const HardwareSpec& card, Precision p);
/// The precision Step-3's decode-cost accounting uses for a card: fp8 where the card has an fp8
/// path, else bf16 (arXiv 2507.19427 §4).
Precision decode_cost_precision(const HardwareSpec& card);

/// Ridge point (FLOP per byte) for a precision the card supports natively; nullopt when it has no
/// such path (the roofline command reports that as an input error).
std::optional<double> ridge_point(const HardwareSpec& card, Precision p);
/// Ridge point with the fallback of `compute_peak`.
double effective_ridge_point(const HardwareSpec& card, Precision p);

/// Attainable FLOP/s at arithmetic intensity `ai`: min(peak, ai × bandwidth).
double attainable_flops(double peak_flops, double mem_bw_bytes_per_s, double ai);
Bound classify(double ai, double ridge);

/// A pool of identical cards inside a mixed pool.
struct PoolMember {
  HardwareSpec card;
  int count = 1;
};

/// The roofline of a mixed pool used as one machine: aggregate peak and bandwidth, so its ridge is
/// Σ count·peak ÷ Σ count·bandwidth (a bandwidth-weighted mean of the members' ridges).
struct WeightedRoofline {
  double peak_flops = 0.0;
  double mem_bw_bytes_per_s = 0.0;
  std::vector<PoolMember> members;
  Precision precision = Precision::bf16;

  double ridge() const { return mem_bw_bytes_per_s > 0 ? peak_flops / mem_bw_bytes_per_s : 0.0; }
  /// FLOP/s the pool attains when every member runs work of intensity `ai` (each on its own roof).
  double attainable(double ai) const;
};

WeightedRoofline weighted_roofline(const std::vector<PoolMember>& members, Precision p);

}  // namespace rlsim
