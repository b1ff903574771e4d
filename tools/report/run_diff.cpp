// Comparing two runs' metrics.json and resolved.yaml.
#include "tools/report/run_diff.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "tools/report/text_format.h"

namespace rlsim {
namespace {

void flatten(const nlohmann::json& j, const std::string& path, std::map<std::string, nlohmann::json>& out) {
  if (j.is_object()) {
    for (const auto& [key, value] : j.items()) flatten(value, path.empty() ? key : path + "." + key, out);
  } else if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) flatten(j[i], path + "." + std::to_string(i), out);
  } else {
    out[path] = j;
  }
}

std::string figure_text(const nlohmann::json& v) {
  if (v.is_null()) return "(absent)";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_float()) return formatted("%.6g", v.get<double>());
  return v.dump();
}

}  // namespace

std::vector<FigureChange> diff_metrics(const nlohmann::json& a, const nlohmann::json& b) {
  std::map<std::string, nlohmann::json> fa, fb;
  flatten(a, "", fa);
  flatten(b, "", fb);
  std::set<std::string> paths;
  for (const auto& [path, v] : fa) paths.insert(path);
  for (const auto& [path, v] : fb) paths.insert(path);
  std::vector<FigureChange> changes;
  for (const auto& path : paths) {
    const nlohmann::json va = fa.count(path) ? fa[path] : nlohmann::json();
    const nlohmann::json vb = fb.count(path) ? fb[path] : nlohmann::json();
    FigureChange c{path, figure_text(va), figure_text(vb), 0.0};
    if (va.is_number() && vb.is_number()) {
      const double x = va.get<double>(), y = vb.get<double>();
      if (std::abs(y - x) <= 1e-12 * std::max(std::abs(x), std::abs(y))) continue;
      c.relative = x != 0.0 ? (y - x) / std::abs(x) : 0.0;
    } else if (va == vb) {
      continue;
    }
    changes.push_back(c);
  }
  return changes;
}

std::string diff_report(const std::string& name_a, const std::string& name_b,
                        const std::vector<FigureChange>& inputs, std::vector<FigureChange> figures) {
  std::string out = "rlsim diff: " + name_a + " -> " + name_b + "\n";
  out += inputs.empty() ? "inputs: resolved.yaml identical\n"
                        : "inputs (" + std::to_string(inputs.size()) + " changed in resolved.yaml):\n";
  for (const auto& c : inputs) out += "  " + c.path + ": " + c.before + " -> " + c.after + "\n";
  if (figures.empty()) return out + "figures: metrics.json identical\n";
  // Numbers by the size of their relative change, biggest first; the rest after, in path order.
  std::stable_sort(figures.begin(), figures.end(), [](const FigureChange& a, const FigureChange& b) {
    return std::abs(a.relative) > std::abs(b.relative);
  });
  out += "figures (" + std::to_string(figures.size()) + " changed, the biggest relative changes first):\n";
  size_t width = 0;
  for (const auto& c : figures) width = std::max(width, c.path.size());
  for (const auto& c : figures) {
    out += "  " + padded(c.path, width + 1) + c.before + " -> " + c.after;
    if (c.relative != 0.0) out += formatted(" (%+.1f%%)", 100.0 * c.relative);
    out += "\n";
  }
  return out;
}

}  // namespace rlsim
