// Fitting the tiled roofline (Nelder–Mead in transformed coordinates, so every trial point is a
// valid model) and the plain-roofline references.
#include "calibrate/kernel_fitter.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>

#include "calibrate/nelder_mead.h"

namespace rlsim {
namespace {

// Coordinates: log overhead (µs), logit efficiencies and wave quantisation, log tile costs (units of
// 16 elements), log(overlap exponent − 1), log L2 band (units of 128 rows).
enum Param { kOverhead, kComputeEff, kMemoryEff, kTileK, kTileEdge, kOverlap, kWaves, kL2Band, kParams };

double logistic(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double logit(double p) { return std::log(p / (1.0 - p)); }

KernelFit decode(const std::vector<double>& x, const std::array<bool, kParams>& free) {
  KernelFit fit;
  fit.launch_overhead_s = std::exp(x[kOverhead]) * 1e-6;
  fit.compute_efficiency = free[kComputeEff] ? logistic(x[kComputeEff]) : 1.0;
  fit.memory_efficiency = logistic(x[kMemoryEff]);
  fit.tile_k_overhead = free[kTileK] ? 16.0 * std::exp(x[kTileK]) : 0.0;
  fit.tile_edge_cost = free[kTileEdge] ? 16.0 * std::exp(x[kTileEdge]) : 0.0;
  // 64 already reads as max(compute, memory): past it the fit says no more (and exp would overflow
  // to an infinite exponent on timings that show no overlap at all).
  fit.overlap_exponent = free[kOverlap] ? std::min(64.0, 1.0 + std::exp(x[kOverlap])) : 64.0;
  fit.wave_quantization = free[kWaves] ? logistic(x[kWaves]) : 1.0;
  fit.l2_band = free[kL2Band] ? 128.0 * std::exp(x[kL2Band]) : 0.0;
  return fit;
}

std::array<bool, kParams> free_parameters(OpClass c) {
  switch (c) {
    case OpClass::gemm:
    case OpClass::grouped_gemm: return {true, true, true, true, true, true, true, true};
    case OpClass::attention_decode:
    case OpClass::attention_prefill: return {true, true, true, false, false, true, false, false};
    case OpClass::memory_bound: return {true, false, true, false, false, false, false, false};
  }
  return {true, true, true, false, false, true, false, false};
}

double roofline_seconds(const Op& op, const HardwareSpec& card) {
  return std::max(op.flops / datasheet_peak(card, op.compute), op.bytes / card.mem_bw_bytes_per_s);
}

}  // namespace

KernelFit fit_kernel(const std::vector<Measurement>& points, const HardwareSpec& card, int sm_count,
                     double l2_bytes) {
  assert(!points.empty() && "fit_kernel needs measurements");
  const auto free = free_parameters(points.front().op.op_class);
  auto objective = [&](const std::vector<double>& x) {
    KernelFit fit = decode(x, free);
    double sum = 0.0;
    for (const Measurement& m : points)
      sum += std::abs(kernel_seconds(fit, m.op, card, sm_count, l2_bytes) / m.seconds - 1.0);
    return sum / static_cast<double>(points.size());
  };
  // Start from what a well-tuned kernel library reaches on a modern card.
  std::vector<double> x(kParams, 0.0);
  x[kOverhead] = std::log(4.0);
  x[kComputeEff] = logit(0.8);
  x[kMemoryEff] = logit(0.85);
  x[kTileK] = std::log(2.0);
  x[kTileEdge] = std::log(2.0);
  x[kOverlap] = std::log(3.0);
  x[kWaves] = 0.0;
  x[kL2Band] = std::log(8.0);
  return decode(minimize_nelder_mead(objective, x).x, free);
}

BaselineRoofline fit_baseline_roofline(const std::vector<Measurement>& points, const HardwareSpec& card) {
  // Minimise sum((a + b·r − t)/t)² over a = overhead, b = 1/efficiency: weighted linear least squares.
  double s11 = 0, s12 = 0, s22 = 0, y1 = 0, y2 = 0;
  for (const Measurement& m : points) {
    const double w = 1.0 / (m.seconds * m.seconds);
    const double r = roofline_seconds(m.op, card);
    s11 += w;
    s12 += w * r;
    s22 += w * r * r;
    y1 += w * m.seconds;
    y2 += w * r * m.seconds;
  }
  const double det = s11 * s22 - s12 * s12;
  BaselineRoofline fit;
  if (det <= 0.0) return fit;
  const double a = (y1 * s22 - y2 * s12) / det;
  const double b = (s11 * y2 - s12 * y1) / det;
  fit.overhead_s = std::max(0.0, a);
  fit.efficiency = b > 0.0 ? 1.0 / b : 1.0;
  return fit;
}

double baseline_roofline_seconds(const BaselineRoofline& fit, const Op& op, const HardwareSpec& card) {
  return fit.overhead_s + roofline_seconds(op, card) / fit.efficiency;
}

double datasheet_roofline_seconds(const Op& op, const HardwareSpec& card) {
  return roofline_seconds(op, card);
}

}  // namespace rlsim
