// Reading a plug-in's parameters from its YAML block against the plug-in's schema: each key with
// the getter of its type, the schema's default when absent, recorded into resolved.yaml like every
// other field, and errors at the parameter's own line and column. read_plugin and
// read_plugin_block read which entry of a registry a scenario chose (policy, router, cost model)
// together with that entry's parameters; a key that only another entry takes is an error at its
// line, naming the entries that take it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "models/registry/param_schema.h"
#include "models/registry/registry.h"
#include "sim/scenario/yaml_reader.h"

namespace rlsim {

/// Reads every key of `schema` from `r` (which may hold other keys too; the caller calls finish()).
ParamValues read_params(YamlReader& r, const ParamSchema& schema);

/// A registry's entries as the reader needs them: name and parameter schema.
using SchemaList = std::vector<std::pair<std::string, const ParamSchema*>>;

/// InputError at the first key of `r` that is not `chosen`'s parameter but another entry's ("what"
/// names the kind: "policy"). Keys no entry takes are left to YamlReader::finish (did you mean).
void reject_foreign_params(const YamlReader& r, const SchemaList& entries, const std::string& chosen,
                           const std::string& what);

template <class Product, class... Args>
SchemaList schema_list(const Registry<Product, Args...>& registry) {
  SchemaList out;
  for (const auto& entry : registry.entries()) out.emplace_back(entry.name, &entry.params);
  return out;
}

/// For the reference: every entry's parameters as fields under `prefix` of `r` ("" for `r`'s
/// own keys), each owned by "<what> <entry>".
void describe_params(const YamlReader& r, const std::string& prefix, const SchemaList& entries,
                     const std::string& what);

/// The `name` key of a plug-in block (or the key naming a plug-in), for the reference.
Field plugin_name_field(const std::string& key, const std::string& what);

/// The entry of `registry` the mapping `r` names under `name` (`fallback` when absent), no
/// parameters read yet; read_plugin_params reads them (a block may hold keys of its own between).
template <class Product, class... Args>
PluginSpec read_plugin_name(YamlReader& r, const Registry<Product, Args...>& registry,
                            const std::string& what, const std::string& fallback) {
  PluginSpec spec;
  spec.name = r.choice_or(plugin_name_field("name", what), registry.names(), fallback);
  spec.where = r.has("name") ? r.where("name") : r.where();
  return spec;
}

/// Reads the parameters of `spec`'s entry from `r` into `spec.params` and rejects any key of `r`
/// that is another entry's parameter only.
template <class Product, class... Args>
void read_plugin_params(YamlReader& r, const Registry<Product, Args...>& registry, const std::string& what,
                        PluginSpec& spec) {
  describe_params(r, "", schema_list(registry), what);
  spec.params = read_params(r, registry.at(spec.name, spec.where, what).params);
  reject_foreign_params(r, schema_list(registry), spec.name, what);
}

/// The mapping `r` names an entry of `registry` under `name` and holds that entry's parameters
/// (`policy: {name: overlap, max_staleness: 2}`). The caller calls finish() (the block may hold
/// keys of its own).
template <class Product, class... Args>
PluginSpec read_plugin_block(YamlReader& r, const Registry<Product, Args...>& registry,
                             const std::string& what, const std::string& fallback) {
  PluginSpec spec = read_plugin_name(r, registry, what, fallback);
  read_plugin_params(r, registry, what, spec);
  return spec;
}

/// `key` of `parent` is an entry's name (`router: least_loaded`, recorded as written, every
/// parameter at its default) or a block read by read_plugin_block (`router: {name: x, k: v}`).
template <class Product, class... Args>
PluginSpec read_plugin(YamlReader& parent, const Field& field, const Registry<Product, Args...>& registry,
                       const std::string& what, const std::string& fallback) {
  const std::string& key = field.key;
  FieldDoc doc = field_doc(ParamSpec::choice(key, registry.names(), fallback, ""));
  doc.type = "name, or {name: …, parameter: …}";
  parent.describe(field.help.empty() ? plugin_name_field(key, what) : field, doc);
  describe_params(parent, key + ".", schema_list(registry), what);
  if (parent.has(key) && parent.node()[key].IsMap()) {
    YamlReader block = parent.map(key);
    PluginSpec spec = read_plugin_block(block, registry, what, fallback);
    block.finish();
    return spec;
  }
  PluginSpec spec;
  spec.name = parent.choice_or(key, registry.names(), fallback);
  spec.where = parent.has(key) ? parent.where(key) : parent.where();
  spec.params = ParamValues::defaults(registry.at(spec.name, spec.where, what).params, spec.where);
  return spec;
}

}  // namespace rlsim
