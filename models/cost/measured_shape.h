// MeasuredShape: a profile's table of measured times of one GEMM shape (op class, precision, N, K,
// groups; the tensor-parallel split is already in N or K) by token count M, and the interpolation that
// prices any M inside the measured range from it. The kernel library switches kernels at steps in M
// that no smooth model of shape follows; a measured shape keeps those steps. Pure data and arithmetic.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "models/ops/op.h"

namespace rlsim {

struct MeasuredShape {
  OpClass op_class = OpClass::gemm;  ///< gemm or grouped_gemm
  Precision precision = Precision::bf16;
  int64_t n = 0, k = 0, groups = 1;
  std::vector<int64_t> tokens;  ///< measured M, strictly ascending
  std::vector<double> seconds;  ///< measured time at each M (median of repeats), > 0

  /// True when `op` is this shape (any M).
  bool matches(const Op& op) const;
};

/// Time of `tokens` rows on `shape`: the measured time at a measured M, else piecewise linear in
/// log(M) between the two measured neighbours; nullopt outside the measured range (the fitted model
/// answers there). Linear in log(M) held out 0.02 point better than linear in M and 0.05 better than
/// log-log on the vidur H100/A100 GEMMs (calibrate/README.md).
std::optional<double> measured_shape_seconds(const MeasuredShape& shape, int64_t tokens);

/// True when `tokens` is one of the shape's measured token counts.
bool measured_at(const MeasuredShape& shape, int64_t tokens);

}  // namespace rlsim
