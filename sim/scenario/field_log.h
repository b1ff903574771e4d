// FieldLog: the scenario field reference (`rlsim explain`), gathered from the loaders themselves.
// Each YamlReader getter declares its field where it reads it — key, type, unit, default, range and
// a one-line meaning (yaml_reader.h: Field) — and a plug-in's parameters come from its registry
// schema, so the reference and what the loader accepts are one declaration. When a YamlSource
// carries a FieldLog, every getter also notes its field here: loading scenarios of every kind with
// a log gives every field a loader reads, with the registry entries (scenario kinds, policies,
// routers, …) that read it.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "models/registry/param_schema.h"

namespace rlsim {

struct FieldDoc {
  std::string path;              ///< as `rlsim explain` takes it: "cluster.pools[].nodes"
  std::string type;              ///< "integer", "duration", "choice", "distribution", "mapping", …
  std::string unit;              ///< "tokens", "s", "B/s"; empty for plain counts and names
  std::string default_text;      ///< "required" when the field has none
  std::string range;             ///< accepted values ("1 to 1000", "> 0", "bf16 | fp8")
  std::string help;              ///< what it means and changes
  std::set<std::string> owners;  ///< registry entries that read it ("kind rl", "policy overlap")
};

/// The type, unit, default, range and meaning of a registry schema's parameter.
FieldDoc field_doc(const ParamSpec& spec);

/// `raw` with list indices written as []: "cluster.pools.0.nodes" -> "cluster.pools[].nodes".
std::string field_path(const std::string& raw);

class FieldLog {
 public:
  /// Starts one load by `owner` ("kind rl"): the fields noted next are that owner's.
  void begin(std::string owner);
  /// Notes `doc` at `raw_path`. Within one load the first note of a path by an owner wins (a
  /// getter that calls another notes once). A path noted before with the same meaning keeps its
  /// entry and gains the owner, and a different default there is a conflict: a default that depends
  /// on the scenario must say so in words (Field::default_text). The same path with another meaning
  /// (`workload` of a serving scenario) is an entry of its own. Fields inside a distribution are
  /// not fields of their own. `owner` empty: the current load's owner.
  void note(const std::string& raw_path, FieldDoc doc, const std::string& owner = "");
  /// Every field, grouped by top-level section; sections and fields in the order first noted.
  std::vector<FieldDoc> fields() const;
  /// "path: default A (owner) vs B (owner)" for each path whose defaults disagreed.
  const std::vector<std::string>& conflicts() const { return conflicts_; }

 private:
  bool inside_distribution(const std::string& path) const;

  std::string owner_;
  std::set<std::string> noted_this_load_;
  std::vector<FieldDoc> fields_;  ///< in the order first noted
  std::vector<std::string> conflicts_;
};

}  // namespace rlsim
