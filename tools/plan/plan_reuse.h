// A plan folder remembers what it simulated (plan-points.json: each arrangement's `--set`
// overrides and figures, with a key of the scenario they were simulated from), so that a plan
// run again into the same folder — with a larger --max-points, more cards or policies, another
// target — simulates only arrangements it has not simulated before. The key is the scenario as
// resolved without the arrangement (its resolved.yaml text, with the --set and --seed given):
// when it differs, nothing is reused.
#pragma once

#include <string>
#include <vector>

#include "tools/plan/plan_search.h"

namespace rlsim {

/// The key of the scenario arrangements were simulated from: FNV-1a of its resolved YAML, in hex.
std::string plan_base_key(const std::string& resolved_yaml);

/// plan-points.json: every arrangement of `points` that was simulated or refused, by its overrides.
std::string plan_points_json(const std::vector<PlanPoint>& points, const PoolShape& pools,
                             const std::string& key);

/// Gives the points that `path` (an earlier plan-points.json of the same key) holds their figures
/// and status, marked reused; returns how many. A missing, unreadable or other-key file reuses none.
size_t reuse_plan_points(const std::string& path, const std::string& key, const PoolShape& pools,
                         std::vector<PlanPoint>& points);

}  // namespace rlsim
