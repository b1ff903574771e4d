// RooflineCostModel: the datasheet cost model. With c = FLOPs / (peak × compute efficiency(shape))
// and m = bytes / (bandwidth × bandwidth efficiency), a GEMM takes (c^p + m^p)^(1/p) and any other
// op max(c, m), plus a fixed launch overhead, with the peak of the op's math precision
// (models/cost/roofline.h: compute_peak). p = 2.7 is the overlap exponent `rlsim calibrate` fitted
// to vidur's H100 GEMM timings (calibrate/profiles/h100.yaml): between the memory- and compute-bound
// regimes a GEMM does not overlap the two fully (DeepGEMM's FP8 table on H800 showed max(c, m)
// 21-31 % optimistic there; docs/validation.md). Compute efficiency
// falls off for small GEMM dimensions (tile quantisation, too few thread blocks to fill the SMs):
// eff = max_eff × Π_{d ∈ m,n,k} d / (d + half_dim). Defaults are typical of vendor BLAS and
// FlashAttention on Hopper/Ampere (cuBLAS bf16 GEMMs reach ~70-80% of the dense peak on large
// shapes, HBM streams ~80-90% of the datasheet bandwidth); a calibrated profile replaces them.
#pragma once

#include <string>

#include "models/cost/cost_model.h"

namespace rlsim {

struct RooflineEfficiency {
  /// Fraction of the dense peak a large GEMM reaches (also the grouped expert GEMMs).
  double gemm_compute = 0.75;
  /// A GEMM dimension of this size reaches half of `gemm_compute` on its own (m, n and k each).
  double gemm_half_dim = 16.0;
  /// Fraction of the dense peak reached by attention kernels (FlashAttention-2/3 class).
  double attention_compute = 0.60;
  /// Fraction of the datasheet HBM bandwidth that streaming kernels reach.
  double bandwidth = 0.85;
  /// Fixed cost of one kernel launch (host launch + ramp-up), seconds.
  double launch_overhead_s = 4e-6;
  /// How a GEMM's compute and memory times combine: (c^p + m^p)^(1/p). Large p is max(c, m) (the
  /// two fully overlapped); smaller p charges the transition between the regimes.
  double gemm_overlap_exponent = 2.7;
};

class RooflineCostModel : public CostModel {
 public:
  explicit RooflineCostModel(RooflineEfficiency efficiency = {}) : efficiency_(efficiency) {}

  double seconds(const Op& op, const HardwareSpec& card) const override;
  std::string name() const override { return "roofline"; }

  /// Compute efficiency the model assumes for `op` (0..1), exposed for reports and tests.
  double compute_efficiency(const Op& op) const;
  const RooflineEfficiency& efficiency() const { return efficiency_; }

 private:
  RooflineEfficiency efficiency_;
};

}  // namespace rlsim
