// Pricing a measured shape by interpolation in log(tokens).
#include "models/cost/measured_shape.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace rlsim {

bool MeasuredShape::matches(const Op& op) const {
  return op.op_class == op_class && op.compute == precision && op.gemm.n == n && op.gemm.k == k &&
         op.gemm.groups == groups;
}

std::optional<double> measured_shape_seconds(const MeasuredShape& shape, int64_t tokens) {
  assert(shape.tokens.size() == shape.seconds.size() && "one time per measured token count");
  if (shape.tokens.empty() || tokens < shape.tokens.front() || tokens > shape.tokens.back())
    return std::nullopt;
  const auto hi = std::lower_bound(shape.tokens.begin(), shape.tokens.end(), tokens);
  const size_t i = static_cast<size_t>(hi - shape.tokens.begin());
  if (*hi == tokens) return shape.seconds[i];
  const double x0 = std::log(static_cast<double>(shape.tokens[i - 1]));
  const double x1 = std::log(static_cast<double>(shape.tokens[i]));
  const double w = (std::log(static_cast<double>(tokens)) - x0) / (x1 - x0);
  return shape.seconds[i - 1] + (shape.seconds[i] - shape.seconds[i - 1]) * w;
}

bool measured_at(const MeasuredShape& shape, int64_t tokens) {
  return std::binary_search(shape.tokens.begin(), shape.tokens.end(), tokens);
}

}  // namespace rlsim
