// Which point of a sweep wins: the feasible points (they fit in memory and, where the kind has a
// target, meet it) ranked by one of the kind's figures (`rlsim sweep --objective`, the kind's
// own by default), and a line naming the best with its margin over the runner-up.
#pragma once

#include <string>
#include <vector>

#include "tools/sweep/sweep_csv.h"
#include "tools/sweep/sweep_manifest.h"

namespace rlsim {

struct SweepObjective {
  std::string column;  ///< a metric column of the sweep
  bool lower_is_better = true;
};

/// "point P (axis=value …)": a point of `table` as the summary names it.
std::string sweep_point_text(const SweepTable& table, const SweepManifest& manifest, long point);

/// The objective ranking by `column`: higher is better for rates (…_per_s, …_per_s_per_gpu),
/// utilisations and goodput, lower for times, costs and bubbles.
SweepObjective sweep_objective(const std::string& column);

/// The objective `given` by `--objective` (empty: `fallback`, the kind's own), which must be one of
/// the kind's metric `columns`; InputError at --objective naming them otherwise.
SweepObjective chosen_sweep_objective(const std::string& given, const std::string& fallback,
                                      const std::vector<std::string>& columns);

/// The points that qualify for best by `objective` (they ran, fit in memory, meet the kind's target
/// where it has one, and have the figure), best first; ties keep grid order.
std::vector<long> ranked_sweep_points(const SweepTable& table, const SweepObjective& objective);

/// "best by COLUMN (lower is better): point P (axis=value …) V, X% better than the runner-up point
/// Q (…) W", saying when they tie, when only one point qualifies, or that none does and why.
std::string sweep_winner_line(const SweepTable& table, const SweepManifest& manifest,
                              const SweepObjective& objective);

}  // namespace rlsim
