// Reading and writing DIR/sweep.json.
#include "tools/sweep/sweep_manifest.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "calibrate/json_input.h"
#include "models/input_error.h"
#include "models/input_file.h"
#include "tools/report/output_dir.h"
#include "tools/sweep/sweep_csv.h"

namespace rlsim {
namespace fs = std::filesystem;

nlohmann::json SweepManifest::to_json() const {
  nlohmann::json axes_json = nlohmann::json::array();
  for (const auto& axis : axes) axes_json.push_back({{"path", axis.path}, {"values", axis.values}});
  nlohmann::json j{{"scenario", scenario}, {"kind", kind},     {"sets", sets},
                   {"axes", axes_json},    {"points", points}, {"header", header}};
  if (!unsets.empty()) j["unsets"] = unsets;  // absent otherwise: older sweep folders stay the same sweep
  j["seed"] = seed ? nlohmann::json(*seed) : nlohmann::json(nullptr);
  j["inputs"] = inputs;
  j["rlsim_version"] = rlsim_version;
  return j;
}

SweepManifest SweepManifest::from_json(const nlohmann::json& j) {
  SweepManifest m;
  m.scenario = j.at("scenario").get<std::string>();
  m.kind = j.at("kind").get<std::string>();
  m.unsets = j.value("unsets", std::vector<std::string>());
  m.sets = j.at("sets").get<std::vector<std::string>>();
  if (!j.at("seed").is_null()) m.seed = j.at("seed").get<uint64_t>();
  for (const auto& axis : j.at("axes")) {
    m.axes.push_back({axis.at("path").get<std::string>(), axis.at("values").get<std::vector<std::string>>()});
  }
  m.points = j.at("points").get<long>();
  m.header = j.at("header").get<std::vector<std::string>>();
  // Manifests written before these fields read as unknown inputs: they match no current sweep.
  m.inputs = j.value("inputs", std::string());
  m.rlsim_version = j.value("rlsim_version", std::string());
  return m;
}

fs::path manifest_path(const fs::path& dir) { return dir / "sweep.json"; }

SweepManifest read_sweep_manifest(const fs::path& dir) {
  const fs::path path = manifest_path(dir);
  if (!std::filesystem::exists(path))
    throw InputError({path.string(), 0, 0},
                     "no sweep manifest here: is this a folder written by rlsim sweep?");
  const nlohmann::json document = parse_json_input(
      read_input_file(path.string(), kMaxInputFileBytes, InputRole::bookkeeping), path.string());
  SweepManifest manifest;
  try {
    manifest = SweepManifest::from_json(document);
  } catch (const nlohmann::json::exception& e) {
    throw InputError({path.string(), 1, 1}, std::string("malformed sweep manifest: ") + e.what());
  }
  // Its grid must be one rlsim sweep could have run, and its point count that grid's: a merge or a
  // resume sizes its work by it.
  long grid_points = 0;
  try {
    for (const auto& axis : manifest.axes) {
      if (axis.values.empty())
        throw InputError({path.string(), 1, 1}, "axis '" + axis.path + "' has no values");
    }
    grid_points = SweepGrid(manifest.axes).size();
  } catch (const InputError& e) {
    throw InputError({path.string(), 1, 1}, "malformed sweep manifest: " + e.message());
  }
  if (manifest.points != grid_points) {
    throw InputError({path.string(), 1, 1}, "malformed sweep manifest: 'points' is " +
                                                std::to_string(manifest.points) + " but its axes make " +
                                                std::to_string(grid_points));
  }
  return manifest;
}

void claim_sweep_dir(const fs::path& dir, const SweepManifest& manifest) {
  prepare_output_folder(dir, "--out");
  const fs::path path = manifest_path(dir);
  if (!fs::exists(path) && (fs::exists(dir / "sweep.csv") || fs::exists(dir / "points"))) {
    throw InputError(
        {dir.string(), 0, 0},
        "this folder holds a sweep's rows but no sweep.json: which settings made them cannot be told, "
        "so they cannot be resumed; pick another --out or remove the folder");
  }
  if (fs::exists(path)) {
    const SweepManifest existing = read_sweep_manifest(dir);
    if (existing.to_json() == manifest.to_json()) return;
    SweepManifest same_inputs = existing;
    same_inputs.inputs = manifest.inputs;
    same_inputs.rlsim_version = manifest.rlsim_version;
    if (same_inputs.to_json() == manifest.to_json()) {
      throw InputError({path.string(), 1, 1},
                       "this sweep was started from other inputs (rlsim " + existing.rlsim_version +
                           ", inputs " + existing.inputs + "; now rlsim " + manifest.rlsim_version +
                           ", inputs " + manifest.inputs +
                           "): the scenario, a catalog or the profile changed since, so its "
                           "rows cannot be mixed with new ones; pick another --out or remove the folder");
    }
    throw InputError({path.string(), 1, 1}, "this folder holds another sweep (scenario '" +
                                                existing.scenario + "', " + std::to_string(existing.points) +
                                                " points); pick another --out or remove the folder");
  }
  // Shards may start together on a shared file system: write aside, then rename into place.
  replace_file_atomically(path, manifest.to_json().dump(2) + "\n");
}

void check_rows_in_grid(const SweepTable& table, const SweepManifest& manifest, const fs::path& file) {
  const SweepGrid grid(manifest.axes);
  for (const auto& [point, cells] : table.rows) {
    bool belongs = point >= 0 && point < grid.size() && cells.size() > manifest.axes.size();
    if (belongs) {
      const std::vector<std::string> values = grid.values(point);
      belongs = std::equal(values.begin(), values.end(), cells.begin() + 1);
    }
    if (!belongs) {
      throw InputError({file.string(), 0, 0}, "row of point " + std::to_string(point) +
                                                  " is not a point of this sweep's grid (sweep.json); "
                                                  "was the file written by another sweep?");
    }
    // A sweep writes its figures as finite numbers, or nothing for a point that did not load.
    for (size_t c = manifest.axes.size() + 1; c < cells.size() && c < manifest.header.size(); ++c) {
      if (manifest.header[c] == kInvalidReasonColumn || cells[c].empty()) continue;
      char* end = nullptr;
      const double value = std::strtod(cells[c].c_str(), &end);
      if (end != cells[c].c_str() + cells[c].size() || !std::isfinite(value)) {
        throw InputError({file.string(), 0, 0}, "row of point " + std::to_string(point) + ": '" +
                                                    manifest.header[c] + "' holds '" + cells[c] +
                                                    "', expected a finite number or nothing");
      }
    }
  }
}

}  // namespace rlsim
