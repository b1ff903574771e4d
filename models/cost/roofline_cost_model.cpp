// The datasheet roofline cost model (see roofline_cost_model.h).
#include "models/cost/roofline_cost_model.h"

#include <algorithm>
#include <cassert>

#include "models/cost/roofline.h"

namespace rlsim {
namespace {

double saturation(double dim, double half) { return dim / (dim + half); }

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
  return std::max(compute_s, memory_s) + efficiency_.launch_overhead_s;
}

}  // namespace rlsim
