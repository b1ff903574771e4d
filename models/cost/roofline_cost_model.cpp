// The datasheet roofline cost model (see roofline_cost_model.h) and its registration, whose
// schema makes every RooflineEfficiency field a parameter with the struct's default.
#include "models/cost/roofline_cost_model.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "models/cost/cost_model_registry.h"
#include "models/cost/roofline.h"

namespace rlsim {
namespace {

double saturation(double dim, double half) { return dim / (dim + half); }

/// (c^p + m^p)^(1/p), computed relative to the larger term so that large p cannot overflow.
double overlapped(double compute_s, double memory_s, double p) {
  const double larger = std::max(compute_s, memory_s);
  if (larger <= 0.0) return 0.0;
  return larger * std::pow(std::pow(compute_s / larger, p) + std::pow(memory_s / larger, p), 1.0 / p);
}

}  // namespace

double RooflineCostModel::compute_efficiency(const Op& op) const {
  switch (op.op_class) {
    case OpClass::gemm:
    case OpClass::grouped_gemm: {
      const double h = efficiency_.gemm_half_dim;
      return efficiency_.gemm_compute * saturation(static_cast<double>(op.gemm.m), h) *
             saturation(static_cast<double>(op.gemm.n), h) * saturation(static_cast<double>(op.gemm.k), h);
    }
    case OpClass::attention_decode:
    case OpClass::attention_prefill: return efficiency_.attention_compute;
    case OpClass::memory_bound: return efficiency_.gemm_compute;
  }
  assert(false && "unhandled op class");
  return 1.0;
}

double RooflineCostModel::seconds(const Op& op, const HardwareSpec& card) const {
  assert(op.flops >= 0.0 && op.bytes >= 0.0 && "op counts must not be negative");
  const double peak = compute_peak(card, op.compute) * compute_efficiency(op);
  const double bandwidth = card.mem_bw_bytes_per_s * efficiency_.bandwidth;
  const double compute_s = peak > 0.0 ? op.flops / peak : 0.0;
  const double memory_s = bandwidth > 0.0 ? op.bytes / bandwidth : 0.0;
  const bool gemm = op.op_class == OpClass::gemm || op.op_class == OpClass::grouped_gemm;
  return (gemm ? overlapped(compute_s, memory_s, efficiency_.gemm_overlap_exponent)
               : std::max(compute_s, memory_s)) +
         efficiency_.launch_overhead_s;
}

namespace {

std::unique_ptr<CostModel> make_roofline(const ParamValues& params, const std::string& profile,
                                         const SourceLocation& where) {
  if (!profile.empty()) {
    throw InputError(where, "the roofline cost model uses datasheet figures only; a profile ('" + profile +
                                "') needs the 'profile' cost model");
  }
  RooflineEfficiency e;
  e.gemm_compute = params.number("gemm_compute");
  e.gemm_half_dim = params.number("gemm_half_dim");
  e.attention_compute = params.number("attention_compute");
  e.bandwidth = params.number("bandwidth");
  e.launch_overhead_s = params.number("launch_overhead");
  e.gemm_overlap_exponent = params.number("gemm_overlap_exponent");
  return std::make_unique<RooflineCostModel>(e);
}

const RooflineEfficiency kDefault;

}  // namespace

RLSIM_REGISTER_COST_MODEL(
    make_roofline, "roofline", "datasheet peaks and bandwidth times typical kernel efficiencies",
    ParamSpec::number("gemm_compute", kDefault.gemm_compute, 0.01, 1,
                      "fraction of the dense peak a large GEMM reaches"),
    ParamSpec::number("gemm_half_dim", kDefault.gemm_half_dim, 1, 65536,
                      "GEMM dimension (m, n or k) at which the GEMM reaches half of gemm_compute"),
    ParamSpec::number("attention_compute", kDefault.attention_compute, 0.01, 1,
                      "fraction of the dense peak attention kernels reach"),
    ParamSpec::number("bandwidth", kDefault.bandwidth, 0.01, 1,
                      "fraction of the HBM bandwidth streaming kernels reach"),
    ParamSpec::quantity_of("launch_overhead", Quantity::duration, kDefault.launch_overhead_s,
                           "fixed cost of one kernel launch, added to every op"),
    ParamSpec::number("gemm_overlap_exponent", kDefault.gemm_overlap_exponent, 1, 1000,
                      "p of a GEMM's time (compute^p + memory^p)^(1/p); 1000 is max(compute, memory)"));

}  // namespace rlsim
