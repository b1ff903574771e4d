// Each sweep point's full metrics: its metrics.json under DIR/points/N/ (written by the point's
// process as it finishes), and DIR/sweep-metrics.csv, one row per point with every scalar of its
// metrics.json flattened to a column (`ttft_s.p99`, `bubble_by_cause.train_waits_rollout`, …;
// arrays of numbers by index, arrays of records such as per_step left out), for a data frame.
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tools/sweep/sweep_csv.h"

namespace rlsim {

/// DIR/points/N/metrics.json.
std::filesystem::path point_metrics_path(const std::filesystem::path& dir, long point);
/// Writes `metrics` there atomically (a temporary file, then rename).
void write_point_metrics(const std::filesystem::path& dir, long point, const nlohmann::json& metrics);
/// The metrics.json of `point` under the first of `dirs` that has one; nullopt when none does.
std::optional<nlohmann::json> find_point_metrics(const std::vector<std::filesystem::path>& dirs, long point);
/// Every scalar of `metrics` by its dotted path; strings as they are, booleans true/false,
/// numbers as the sweep writes them (csv_number).
std::map<std::string, std::string> flatten_metrics(const nlohmann::json& metrics);
/// DIR/sweep-metrics.csv for the points of `table` (its first `key_columns` columns, the point and
/// the swept values, lead each row), each point's metrics.json found under the first of `dirs` that
/// has it; a point without one (invalid, or from a sweep before points were kept) has empty
/// metric cells. Written atomically; returns the number of points with metrics.
long write_sweep_metrics_csv(const std::filesystem::path& out, const SweepTable& table, size_t key_columns,
                             const std::vector<std::filesystem::path>& dirs);
/// The sweep's line for predictions made outside a calibrated profile's fitted range: each note of
/// the points' `pricing.outside_fitted_range` with the points it holds for ("outside the profile's
/// fitted range: rollout.max_batch 256 (fitted up to batch 8) at points 2, 3"); empty when none.
/// Metrics found as write_sweep_metrics_csv finds them.
std::string outside_fitted_range_text(const SweepTable& table,
                                      const std::vector<std::filesystem::path>& dirs);

}  // namespace rlsim
