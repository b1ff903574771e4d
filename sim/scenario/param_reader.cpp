// read_params: one YamlReader getter per parameter type; reject_foreign_params: a key that belongs
// to another plug-in of the same extension point.
#include "sim/scenario/param_reader.h"

namespace rlsim {

ParamValues read_params(YamlReader& r, const ParamSchema& schema) {
  ParamValues values;
  for (const auto& spec : schema) {
    const SourceLocation where = r.has(spec.key) ? r.where(spec.key) : r.where();
    switch (spec.type) {
      case ParamType::integer:
        values.set(spec.key,
                   r.integer_or(spec.key, std::get<int64_t>(spec.fallback), spec.whole_min, spec.whole_max),
                   where);
        break;
      case ParamType::number:
        values.set(spec.key, r.number_or(spec.key, std::get<double>(spec.fallback), spec.min, spec.max),
                   where);
        break;
      case ParamType::quantity:
        values.set(spec.key,
                   r.quantity_or(spec.key, spec.quantity, std::get<double>(spec.fallback), spec.allow_zero),
                   where);
        break;
      case ParamType::flag:
        values.set(spec.key, r.flag_or(spec.key, std::get<bool>(spec.fallback)), where);
        break;
      case ParamType::choice:
        values.set(spec.key, r.choice_or(spec.key, spec.choices, std::get<std::string>(spec.fallback)),
                   where);
        break;
    }
  }
  return values;
}

void describe_params(const YamlReader& r, const std::string& prefix, const SchemaList& entries,
                     const std::string& what) {
  for (const auto& [name, schema] : entries) {
    for (const auto& spec : *schema) r.describe(prefix + spec.key, field_doc(spec), what + " " + name);
  }
}

Field plugin_name_field(const std::string& key, const std::string& what) {
  return {key, "which " + what + " to use (rlsim list shows each with its parameters)"};
}

void reject_foreign_params(const YamlReader& r, const SchemaList& entries, const std::string& chosen,
                           const std::string& what) {
  const ParamSchema* own = nullptr;
  for (const auto& [name, schema] : entries) {
    if (name == chosen) own = schema;
  }
  for (const auto& item : r.node()) {
    const std::string key = item.first.as<std::string>("");
    if (key == "name" || (own && declares(*own, key))) continue;
    std::vector<std::string> owners;
    for (const auto& [name, schema] : entries) {
      if (declares(*schema, key)) owners.push_back(name);
    }
    if (owners.empty()) continue;
    std::vector<std::string> keys;
    if (own) {
      for (const auto& spec : *own) keys.push_back(spec.key);
    }
    const std::string last = owners.back();
    owners.pop_back();
    r.fail(key, "'" + key + "' is not a parameter of " + what + " '" + chosen + "', which takes " +
                    (keys.empty() ? "none" : join(keys)) + "; it belongs to " +
                    (owners.empty() ? last : join(owners) + " and " + last));
  }
}

}  // namespace rlsim
