// The median of measured values, as every calibration table keeps for a point measured repeatedly.
#pragma once

#include <algorithm>
#include <vector>

namespace rlsim {

/// The middle value, or the mean of the two middle ones; `values` non-empty.
inline double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace rlsim
