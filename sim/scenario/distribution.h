// Distribution: how a workload quantity (tokens, seconds, turns) is drawn — fixed, uniform, normal,
// lognormal or an empirical histogram — with optional caps so long tails can be shaped.
// Sampling lives in sim/engine (it needs the run's random engine); this is the plain description.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace rlsim {

struct Distribution {
  enum class Kind { fixed, uniform, normal, lognormal, empirical };
  Kind kind = Kind::fixed;
  double value = 0.0;   ///< fixed
  double low = 0.0;     ///< uniform: lower bound
  double high = 0.0;    ///< uniform: upper bound
  double mean = 0.0;    ///< normal / lognormal: mean of the distribution itself (not of its log)
  double spread = 0.0;  ///< normal: standard deviation; lognormal: sigma of the underlying normal
  /// empirical: (value, weight) bins; a sample picks a bin by weight and returns its value.
  std::vector<std::pair<double, double>> bins;
  double min = 0.0;  ///< samples below are raised to this (a floor; 0 = none)
  double max = 0.0;  ///< samples above are cut to this (a cap; 0 = none)
  /// The quantity's physical bound (the reader's `max_allowed`): no value written may pass it, and
  /// a long-tailed sample above it is cut to it (0 = none).
  double limit = 0.0;

  /// Expected value before caps (for planning and summaries).
  double nominal_mean() const;
  /// The largest value a draw can take: the cap, the fixed value, the uniform's or the empirical's
  /// largest; 0 for an uncapped normal or lognormal (bounded only by the physical limit).
  double largest() const;
  /// False for a normal or lognormal without a cap: its draws have no largest value.
  bool capped() const { return (kind != Kind::normal && kind != Kind::lognormal) || max > 0.0; }
};

/// Always `value`.
inline Distribution fixed_distribution(double value) {
  Distribution d;
  d.value = value;
  return d;
}

}  // namespace rlsim
