// YAML as a JSON tree (yaml_tree.h).
#include "sim/scenario/yaml_tree.h"

#include <yaml-cpp/yaml.h>

#include "models/input_error.h"

namespace rlsim {
namespace {

nlohmann::json converted(const YAML::Node& n) {
  if (!n || n.IsNull()) return nullptr;
  if (n.IsScalar()) return n.Scalar();
  if (n.IsSequence()) {
    nlohmann::json items = nlohmann::json::array();
    for (const auto& item : n) items.push_back(converted(item));
    return items;
  }
  nlohmann::json fields = nlohmann::json::object();
  for (const auto& entry : n) fields[entry.first.Scalar()] = converted(entry.second);
  return fields;
}

}  // namespace

nlohmann::json yaml_tree(const std::string& text, const std::string& file) {
  try {
    return converted(YAML::Load(text));
  } catch (const YAML::Exception& e) {
    throw InputError({file, e.mark.line + 1, e.mark.column + 1}, "not YAML: " + e.msg);
  }
}

}  // namespace rlsim
