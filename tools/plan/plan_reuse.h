// A plan folder remembers what it simulated (plan-points.json: each arrangement's `--set`
// overrides and figures, with a key of the scenario they were simulated from), so that a plan
// run again into the same folder — with a larger --max-points, more cards or policies, another
// target — simulates only arrangements it has not simulated before, and a plan given the files of
// its shards (`--shard I/N` on a Slurm array, then `--reuse`) simulates nothing. The key is the scenario as
// resolved without the arrangement (its resolved.yaml text, with the --set and --seed given):
// when it differs, nothing is reused.
#pragma once

#include <optional>
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
/// and status, marked reused; returns how many, or nothing when the file is missing, unreadable or
/// of another scenario (then it reuses none).
std::optional<size_t> reuse_plan_points(const std::string& path, const std::string& key,
                                        const PoolShape& pools, std::vector<PlanPoint>& points);

}  // namespace rlsim
