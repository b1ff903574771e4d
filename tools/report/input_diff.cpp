// Two resolved scenarios compared as trees (input_diff.h).
#include "tools/report/input_diff.h"

#include <cmath>
#include <cstdlib>

#include "sim/scenario/yaml_tree.h"

namespace rlsim {
namespace {

using Json = nlohmann::json;

/// A node as one line: a scalar as written, anything else as flow JSON.
std::string as_written(const Json& n) {
  if (n.is_null()) return "(absent)";
  if (n.is_string()) return n.get<std::string>();
  return n.dump();
}

/// A list item's key: its `name`, else its `between` ends (links), else its index.
std::string item_key(const Json& item, size_t index) {
  if (item.is_object()) {
    if (item.contains("name") && item["name"].is_string()) return item["name"].get<std::string>();
    if (item.contains("between") && item["between"].is_array()) {
      std::string ends;
      for (const auto& end : item["between"]) ends += (ends.empty() ? "" : ",") + as_written(end);
      return ends;
    }
  }
  return std::to_string(index);
}

bool number(const std::string& text, double& value) {
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return !text.empty() && end && *end == '\0';
}

void compare(const Json& a, const Json& b, const std::string& path, std::vector<FigureChange>& out) {
  auto child = [&](const std::string& key) { return path.empty() ? key : path + "." + key; };
  if (a.is_object() && b.is_object()) {
    for (const auto& [key, value] : a.items())
      compare(value, b.contains(key) ? b[key] : Json(), child(key), out);
    for (const auto& [key, value] : b.items())
      if (!a.contains(key)) compare(Json(), value, child(key), out);
    return;
  }
  if (a.is_array() && b.is_array()) {
    auto keyed = [](const Json& list) {
      std::vector<std::pair<std::string, Json>> items;
      for (size_t i = 0; i < list.size(); ++i) items.emplace_back(item_key(list[i], i), list[i]);
      return items;
    };
    const auto items_a = keyed(a), items_b = keyed(b);
    auto find = [](const std::vector<std::pair<std::string, Json>>& items,
                   const std::string& key) -> const Json* {
      for (const auto& [k, node] : items)
        if (k == key) return &node;
      return nullptr;
    };
    for (const auto& [key, node] : items_a) {
      const Json* other = find(items_b, key);
      compare(node, other ? *other : Json(), path + "[" + key + "]", out);
    }
    for (const auto& [key, node] : items_b)
      if (!find(items_a, key)) compare(Json(), node, path + "[" + key + "]", out);
    return;
  }
  const std::string before = as_written(a), after = as_written(b);
  if (before == after) return;
  FigureChange change{path, before, after, 0.0};
  double x = 0.0, y = 0.0;
  if (number(before, x) && number(after, y) && x != 0.0) change.relative = (y - x) / std::abs(x);
  out.push_back(change);
}

}  // namespace

std::vector<FigureChange> diff_inputs(const std::string& yaml_a, const std::string& yaml_b,
                                      const std::string& file_a, const std::string& file_b) {
  std::vector<FigureChange> out;
  compare(yaml_tree(yaml_a, file_a), yaml_tree(yaml_b, file_b), "", out);
  return out;
}

}  // namespace rlsim
