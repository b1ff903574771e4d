// Each sweep point's metrics.json, and their flattened table (sweep_points.h).
#include "tools/sweep/sweep_points.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "tools/report/output_dir.h"

namespace rlsim {
namespace fs = std::filesystem;

namespace {

void flatten_into(const nlohmann::json& j, const std::string& prefix,
                  std::map<std::string, std::string>& out) {
  auto key = [&](const std::string& name) { return prefix.empty() ? name : prefix + "." + name; };
  if (j.is_object()) {
    for (const auto& [name, value] : j.items()) flatten_into(value, key(name), out);
  } else if (j.is_array()) {
    // Arrays of numbers (an interval, a pair) by index; arrays of records are per-step tables.
    const bool numbers =
        std::all_of(j.begin(), j.end(), [](const nlohmann::json& v) { return v.is_number(); });
    if (!numbers) return;
    for (size_t i = 0; i < j.size(); ++i) flatten_into(j[i], key(std::to_string(i)), out);
  } else if (j.is_string()) {
    out[prefix] = j.get<std::string>();
  } else if (j.is_boolean()) {
    out[prefix] = j.get<bool>() ? "true" : "false";
  } else if (j.is_number()) {
    out[prefix] = csv_number(j.get<double>());
  }
}

}  // namespace

fs::path point_metrics_path(const fs::path& dir, long point) {
  return dir / "points" / std::to_string(point) / "metrics.json";
}

void write_point_metrics(const fs::path& dir, long point, const nlohmann::json& metrics) {
  const fs::path path = point_metrics_path(dir, point);
  fs::create_directories(path.parent_path());
  replace_file_atomically(path, metrics.dump(2) + "\n");
}

std::map<std::string, std::string> flatten_metrics(const nlohmann::json& metrics) {
  std::map<std::string, std::string> out;
  flatten_into(metrics, "", out);
  return out;
}

std::optional<nlohmann::json> find_point_metrics(const std::vector<fs::path>& dirs, long point) {
  for (const fs::path& dir : dirs) {
    const fs::path file = point_metrics_path(dir, point);
    if (!fs::exists(file)) continue;
    std::ifstream in(file, std::ios::binary);
    nlohmann::json metrics = nlohmann::json::parse(in, nullptr, false);
    if (!metrics.is_object())
      throw InputError({file.string(), 0, 0},
                       "expected the JSON object rlsim wrote there, found an edited or "
                       "damaged file");
    return metrics;
  }
  return std::nullopt;
}

std::string outside_fitted_range_text(const SweepTable& table, const std::vector<fs::path>& dirs) {
  std::map<std::string, std::vector<long>> points_of;  // note -> the points it holds for
  std::vector<std::string> order;
  for (const auto& [point, cells] : table.rows) {
    const std::optional<nlohmann::json> metrics = find_point_metrics(dirs, point);
    if (!metrics || !metrics->contains("pricing")) continue;
    const nlohmann::json& pricing = (*metrics)["pricing"];
    if (!pricing.contains("outside_fitted_range")) continue;
    for (const auto& note : pricing["outside_fitted_range"]) {
      auto [it, fresh] = points_of.try_emplace(note.get<std::string>());
      if (fresh) order.push_back(it->first);
      it->second.push_back(point);
    }
  }
  std::string out;
  for (const std::string& note : order) {
    std::string points;
    for (long point : points_of[note]) points += (points.empty() ? "" : ", ") + std::to_string(point);
    out += "outside the profile's fitted range: " + note + " at point" +
           (points_of[note].size() > 1 ? "s " : " ") + points + " (an extrapolation of its terms)\n";
  }
  return out;
}

long write_sweep_metrics_csv(const fs::path& out, const SweepTable& table, size_t key_columns,
                             const std::vector<fs::path>& dirs) {
  std::map<long, std::map<std::string, std::string>> rows;
  std::set<std::string> columns;
  for (const auto& [point, cells] : table.rows) {
    const std::optional<nlohmann::json> metrics = find_point_metrics(dirs, point);
    if (!metrics) continue;
    rows[point] = flatten_metrics(*metrics);
    for (const auto& [name, value] : rows[point]) columns.insert(name);
  }
  std::vector<std::string> header(table.header.begin(),
                                  table.header.begin() + static_cast<long>(key_columns));
  header.insert(header.end(), columns.begin(), columns.end());
  std::ostringstream text;
  text << csv_line(header) << "\n";
  for (const auto& [point, cells] : table.rows) {
    std::vector<std::string> row(cells.begin(), cells.begin() + static_cast<long>(key_columns));
    const auto found = rows.find(point);
    for (const std::string& column : columns) {
      if (found == rows.end()) {
        row.emplace_back();
        continue;
      }
      const auto cell = found->second.find(column);
      row.push_back(cell == found->second.end() ? std::string() : cell->second);
    }
    text << csv_line(row) << "\n";
  }
  replace_file_atomically(out / "sweep-metrics.csv", text.str());
  return static_cast<long>(rows.size());
}

}  // namespace rlsim
