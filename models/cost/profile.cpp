// Predictions from a calibrated HardwareProfile: the tiled roofline of each op class and the
// alpha-beta collectives. The fitter (calibrate/) minimises the error of exactly these functions,
// so what is fitted is what the simulator uses.
#include "models/cost/profile.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace rlsim {
namespace {

struct Tile {
  double rows;  ///< tm: output rows (tokens) per tile
  double cols;  ///< tn: output columns per tile
};

// Output tiles a GEMM library picks from (CUTLASS/cuBLAS-like shapes on Ampere and Hopper).
constexpr std::array<Tile, 6> kGemmTiles{
    {{256, 128}, {128, 256}, {128, 128}, {128, 64}, {64, 128}, {64, 64}}};
// Split-K factors considered when a GEMM has too few tiles to fill the SMs.
constexpr std::array<double, 4> kSplitK{{1, 2, 4, 8}};
// Query rows per work unit of a flash-style prefill kernel.
constexpr double kPrefillQueryBlock = 128.0;

double ceil_div(double a, double b) { return std::ceil(a / b); }

double gemm_compute_seconds(const KernelFit& fit, const GemmShape& g, double per_sm_flops, double sms,
                            double memory_bw) {
  const double m = static_cast<double>(g.m), n = static_cast<double>(g.n), k = static_cast<double>(g.k);
  const double groups = static_cast<double>(g.groups);
  double best = std::numeric_limits<double>::infinity();
  for (const Tile& tile : kGemmTiles) {
    const double tiles = groups * ceil_div(m, tile.rows) * ceil_div(n, tile.cols);
    const double efficiency =
        fit.compute_efficiency / (1.0 + fit.tile_edge_cost * (1.0 / tile.rows + 1.0 / tile.cols));
    for (double split : kSplitK) {
      if (split > 1.0 && tiles * split > 2.0 * sms) break;  // splitting only helps an under-filled card
      const double q = fit.wave_quantization;
      const double waves = (1.0 - q) * tiles * split / sms + q * ceil_div(tiles * split, sms);
      const double k_steps = ceil_div(k, split) + fit.tile_k_overhead;
      double t = waves * 2.0 * tile.rows * tile.cols * k_steps / (per_sm_flops * efficiency);
      // Split-K writes fp32 partial outputs and reads them back to reduce.
      if (split > 1.0) t += 2.0 * split * groups * m * n * 4.0 / (memory_bw * fit.memory_efficiency);
      best = std::min(best, t);
    }
  }
  return best;
}

double prefill_compute_seconds(const KernelFit& fit, const Op& op, double per_sm_flops, double sms) {
  const AttentionShape& a = op.attention;
  const double units =
      static_cast<double>(a.batch) * a.q_heads * ceil_div(static_cast<double>(a.q_len), kPrefillQueryBlock);
  const double waves = ceil_div(units, sms);
  return waves * (op.flops / units) / (per_sm_flops * fit.compute_efficiency);
}

double gemm_hbm_bytes(const KernelFit& fit, const Op& op, double l2_bytes) {
  if (fit.l2_band <= 0.0 || l2_bytes <= 0.0) return op.bytes;
  const GemmShape& g = op.gemm;
  const double in = bytes_per_element(op.compute), out = std::max(2.0, in);
  const double m = static_cast<double>(g.m), n = static_cast<double>(g.n), k = static_cast<double>(g.k);
  const double a = m * k * in, b = k * n * in;
  const double a_reads = a > l2_bytes ? std::max(1.0, n / fit.l2_band) : 1.0;
  const double b_reads = b > l2_bytes ? std::max(1.0, m / fit.l2_band) : 1.0;
  return static_cast<double>(g.groups) * (a * a_reads + b * b_reads + m * n * out);
}

}  // namespace

double datasheet_peak(const HardwareSpec& card, Precision precision) {
  if (auto p = card.peak(precision)) return *p;
  if (auto p = card.peak(Precision::bf16)) return *p;
  if (auto p = card.peak(Precision::fp16)) return *p;
  assert(false && "a card needs a bf16 or fp16 peak");
  return 0.0;
}

double kernel_seconds(const KernelFit& fit, const Op& op, const HardwareSpec& card, int sm_count,
                      double l2_bytes) {
  assert(sm_count > 0 && "a profile needs the card's SM count");
  assert(fit.compute_efficiency > 0.0 && fit.memory_efficiency > 0.0 && "efficiencies must be positive");
  const double peak = datasheet_peak(card, op.compute);
  const double sms = static_cast<double>(sm_count);
  const double bw = card.mem_bw_bytes_per_s;
  const bool gemm = op.op_class == OpClass::gemm || op.op_class == OpClass::grouped_gemm;
  const double memory = (gemm ? gemm_hbm_bytes(fit, op, l2_bytes) : op.bytes) / (bw * fit.memory_efficiency);
  double compute = 0.0;
  switch (op.op_class) {
    case OpClass::gemm:
    case OpClass::grouped_gemm: compute = gemm_compute_seconds(fit, op.gemm, peak / sms, sms, bw); break;
    case OpClass::attention_prefill: compute = prefill_compute_seconds(fit, op, peak / sms, sms); break;
    case OpClass::attention_decode:
    case OpClass::memory_bound: compute = op.flops / (peak * fit.compute_efficiency); break;
  }
  const double hi = std::max(compute, memory), lo = std::min(compute, memory);
  const double p = fit.overlap_exponent;
  if (hi <= 0.0) return fit.launch_overhead_s;
  return fit.launch_overhead_s + hi * std::pow(1.0 + std::pow(lo / hi, p), 1.0 / p);
}

const OpClassProfile* HardwareProfile::find(OpClass op_class, Precision precision) const {
  auto lookup = [&](OpClass c) -> const OpClassProfile* {
    const OpClassProfile* any = nullptr;
    const OpClassProfile* bf16 = nullptr;
    for (const auto& p : ops) {
      if (p.op_class != c) continue;
      if (p.precision == precision) return &p;
      if (p.precision == Precision::bf16) bf16 = &p;
      if (!any) any = &p;
    }
    return bf16 ? bf16 : any;
  };
  const OpClassProfile* found = lookup(op_class);
  if (!found && op_class == OpClass::grouped_gemm) found = lookup(OpClass::gemm);
  return found;
}

const CollectiveFit* HardwareProfile::find_collective(Collective collective, int gpus,
                                                      int gpus_per_node) const {
  const bool crosses_nodes = gpus_per_node < gpus;
  const CollectiveFit* best = nullptr;
  int best_score = std::numeric_limits<int>::max();
  for (const auto& c : collectives) {
    if (c.collective != collective) continue;
    const bool fit_crosses = c.gpus_per_node < c.gpus;
    const int score = (fit_crosses != crosses_nodes ? 1 << 20 : 0) + std::abs(c.gpus - gpus);
    if (score < best_score) {
      best_score = score;
      best = &c;
    }
  }
  return best;
}

const EngineAllReduce* HardwareProfile::find_engine_allreduce(const std::string& engine_name, int gpus,
                                                              bool cuda_graph) const {
  for (const auto& table : engine_allreduces) {
    if (table.engine == engine_name && table.gpus == gpus && table.cuda_graph == cuda_graph) return &table;
  }
  return nullptr;
}

double EngineAllReduce::seconds_at(double message_bytes) const {
  assert(!bytes.empty() && bytes.size() == seconds.size());
  if (message_bytes <= bytes.front()) return seconds.front();
  if (message_bytes >= bytes.back()) return seconds.back() * message_bytes / bytes.back();
  const auto hi =
      static_cast<size_t>(std::upper_bound(bytes.begin(), bytes.end(), message_bytes) - bytes.begin());
  const size_t lo = hi - 1;
  const double share = (message_bytes - bytes[lo]) / (bytes[hi] - bytes[lo]);
  return seconds[lo] + share * (seconds[hi] - seconds[lo]);
}

const MeasuredShape* HardwareProfile::find_measured(const Op& op) const {
  if (op.op_class != OpClass::gemm && op.op_class != OpClass::grouped_gemm) return nullptr;
  for (const auto& shape : measured_shapes) {
    if (shape.matches(op)) return &shape;
  }
  return nullptr;
}

std::optional<ProfilePrice> profile_price(const HardwareProfile& profile, const Op& op,
                                          const HardwareSpec& card) {
  if (const MeasuredShape* shape = profile.find_measured(op)) {
    if (auto t = measured_shape_seconds(*shape, op.gemm.m)) {
      return ProfilePrice{*t,
                          measured_at(*shape, op.gemm.m) ? PriceSource::measured : PriceSource::interpolated};
    }
  }
  const OpClassProfile* p = profile.find(op.op_class, op.compute);
  if (!p) return std::nullopt;
  return ProfilePrice{kernel_seconds(p->fit, op, card, profile.sm_count, profile.l2_bytes),
                      PriceSource::fitted};
}

std::optional<double> profile_seconds(const HardwareProfile& profile, const Op& op,
                                      const HardwareSpec& card) {
  if (auto price = profile_price(profile, op, card)) return price->seconds;
  return std::nullopt;
}

double collective_seconds(const CollectiveFit& fit, int gpus, double bytes) {
  assert(fit.bandwidth_bytes_per_s > 0.0 && "a collective fit needs a positive bandwidth");
  double traffic = 1.0;
  if (fit.collective == Collective::all_reduce && gpus != fit.gpus && gpus > 1 && fit.gpus > 1) {
    // Ring all-reduce moves 2(n-1)/n of the message per GPU; keep the measured bus bandwidth.
    auto factor = [](int n) { return 2.0 * (n - 1) / n; };
    traffic = factor(gpus) / factor(fit.gpus);
  }
  if (gpus <= 1 && fit.collective == Collective::all_reduce) return 0.0;
  return fit.alpha_s + bytes * traffic / fit.bandwidth_bytes_per_s;
}

std::string EngineFitRange::text() const {
  return "batch " + std::to_string(batch_min) + " to " + std::to_string(batch_max) + ", TP " +
         std::to_string(tp_min) + " to " + std::to_string(tp_max) + ", contexts " +
         std::to_string(context_min) + " to " + std::to_string(context_max) + " tokens";
}

}  // namespace rlsim
