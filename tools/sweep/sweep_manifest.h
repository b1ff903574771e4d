// SweepManifest: what a sweep folder holds — the scenario, its kind, the base `--unset`/`--set`/`--seed`,
// the grid's axes, its point count, the CSV header, and a fingerprint of the input contents and
// rlsim version — written once as DIR/sweep.json. A resumed
// sweep or a shard checks that the folder belongs to the same sweep, and sweep-merge reads it to
// know which points make the whole grid.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tools/sweep/sweep_csv.h"
#include "tools/sweep/sweep_grid.h"

namespace rlsim {

struct SweepManifest {
  std::string scenario;
  std::string kind;                 ///< the scenario kind's registered name (tools/kinds/scenario_kind.h)
  std::vector<std::string> unsets;  ///< the base `--unset`s (sweep.json has them when there are any)
  std::vector<std::string> sets;
  std::optional<uint64_t> seed;
  std::vector<SweepAxis> axes;
  long points = 0;
  std::vector<std::string> header;
  /// What determines every point besides the grid: the fingerprint of the scenario, catalog and
  /// profile contents (models/input_file.h) and the rlsim version that simulates them.
  std::string inputs;
  std::string rlsim_version;

  nlohmann::json to_json() const;
  static SweepManifest from_json(const nlohmann::json& j);
};

/// DIR/sweep.json.
std::filesystem::path manifest_path(const std::filesystem::path& dir);
/// Writes the manifest into `dir` (created) unless an identical one is there; InputError when the
/// folder already holds another sweep.
void claim_sweep_dir(const std::filesystem::path& dir, const SweepManifest& manifest);
/// Reads DIR/sweep.json; InputError when missing or malformed.
SweepManifest read_sweep_manifest(const std::filesystem::path& dir);
/// InputError at `file` when a row of `table` is not a point of `manifest`'s grid: a point number
/// past the grid, axis cells other than the values the grid gives that point, or a figure that is
/// not a finite number (nan, inf, text).
void check_rows_in_grid(const SweepTable& table, const SweepManifest& manifest,
                        const std::filesystem::path& file);

}  // namespace rlsim
