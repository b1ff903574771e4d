// YamlReader: checked, located access to one YAML mapping. Every getter both reads a field and
// records its resolved value (defaults filled in, units canonical) into an output node, so the one
// place that declares a field also writes it to `resolved.yaml`. `finish()` rejects keys that no
// getter asked for, suggesting the nearest known key. Errors are InputError with FILE:LINE:COL.
// A getter's key is a Field, which may also say what the field means: with a FieldLog on the
// source, each getter notes its field for the reference (`rlsim explain`, field_log.h).
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "models/input_error.h"
#include "models/named_enum.h"
#include "models/units.h"
#include "sim/scenario/field_log.h"

namespace rlsim {

/// One parsed YAML document and where its values came from.
struct YamlSource {
  std::string file;  ///< path shown in messages
  YAML::Node root;
  /// Paths ("cluster.pools.0.nodes") replaced by `--set` (or a sweep's `--param`), with the
  /// argument that set them as the user wrote it ("--set rollout.tp=2").
  std::map<std::string, std::string> overrides;
  /// Set (by `rlsim explain`): every getter notes the field it reads here.
  FieldLog* fields = nullptr;

  /// Location of a node at `path`: its file position, or the `--set` argument that produced it.
  SourceLocation locate(const YAML::Node& node, const std::string& path) const;
};

/// Loads a YAML file; syntax errors, empty files and non-text input become InputError.
YamlSource load_yaml_file(const std::string& path);
/// Parses YAML text already in memory (tests, `--set` values); `file` names it in messages.
YamlSource load_yaml_text(const std::string& text, const std::string& file);

/// Applies `--set a.b.c=value` (list items by index or by their `name`) to a loaded document;
/// messages name it as `flag` gave it (`--set`, or a sweep's `--param`).
void apply_override(YamlSource& source, const std::string& assignment, const std::string& flag = "--set");
/// Applies `--unset a.b.c`: removes that field (and what it holds) from a loaded document, so a
/// field the file sets can be left to its default or replaced by one it excludes (a serving
/// workload's `rate` for its `concurrency`). The path must name a field the document has.
void remove_field(YamlSource& source, const std::string& path);

/// A field as a getter reads it: its key and, for the reference, what it means — declared at the
/// read, where its type, default and range are, so the two cannot drift apart. A bare key converts.
struct Field {
  Field(const char* name) : key(name) {}             // NOLINT: a bare key is a Field
  Field(std::string name) : key(std::move(name)) {}  // NOLINT
  Field(std::string name, std::string meaning, std::string unit_text = "", std::string default_words = "",
        std::string range_words = "")
      : key(std::move(name)),
        help(std::move(meaning)),
        unit(std::move(unit_text)),
        default_text(std::move(default_words)),
        range_text(std::move(range_words)) {}
  std::string key;
  std::string help;          ///< one line: what it means and changes
  std::string unit;          ///< of a count or number ("tokens", "GPUs"); quantities name their own
  std::string default_text;  ///< when the default depends on the scenario ("the first pool")
  std::string range_text;    ///< when the range depends on the scenario ("1 to the pool's GPUs")
};

class YamlReader {
 public:
  /// `node` must be the mapping at `path` in `source`; `resolved` receives what was read.
  YamlReader(const YamlSource& source, YAML::Node node, std::string path, YAML::Node resolved);

  bool has(const std::string& key) const;
  SourceLocation where() const;
  SourceLocation where(const std::string& key) const;
  [[noreturn]] void fail(const std::string& key, const std::string& message) const;
  [[noreturn]] void fail_here(const std::string& message) const;

  std::string text(const Field& field);
  std::string text_or(const Field& field, const std::string& fallback);
  /// A whole number in [min, max].
  int64_t integer(const Field& field, int64_t min, int64_t max);
  int64_t integer_or(const Field& field, int64_t fallback, int64_t min, int64_t max);
  /// A real number in [min, max].
  double number(const Field& field, double min, double max);
  double number_or(const Field& field, double fallback, double min, double max);
  /// A quantity with a unit; must be > 0 unless `allow_zero`.
  double quantity(const Field& field, Quantity kind, bool allow_zero = false);
  double quantity_or(const Field& field, Quantity kind, double fallback, bool allow_zero = false);
  std::optional<double> optional_quantity(const Field& field, Quantity kind, bool allow_zero = false);
  bool flag_or(const Field& field, bool fallback);
  /// One of `choices` (error lists them).
  std::string choice_or(const Field& field, const std::vector<std::string>& choices,
                        const std::string& fallback);
  /// One of the values of the named enum E, read and written by their names.
  template <class E>
  E choice_or(const Field& field, E fallback) {
    return *parse_enum<E>(choice_or(field, enum_names<E>(), std::string(enum_name(fallback))));
  }
  std::vector<std::string> text_list(const Field& field);
  std::vector<int64_t> integer_list_or(const Field& field, int64_t min, int64_t max);

  /// A nested mapping (required / optional). An optional absent map reads as an empty one.
  YamlReader map(const Field& field);
  YamlReader map_or_empty(const Field& field);
  /// A list of mappings; `allow_empty` false rejects [].
  std::vector<YamlReader> map_list(const Field& field, bool allow_empty = false);
  std::vector<YamlReader> map_list_or_empty(const Field& field);

  /// Records a value that was derived, not read (e.g. a default taken from the hardware catalog).
  void record(const std::string& key, const YAML::Node& value);
  /// The raw node (for polymorphic fields such as distributions); marks the key as known.
  YAML::Node raw(const std::string& key);
  const YAML::Node& node() const { return node_; }
  const std::string& path() const { return path_; }
  const YamlSource& source() const { return *source_; }
  YAML::Node resolved() const { return resolved_; }

  /// Notes `field` for the reference when the source carries a FieldLog (`doc` gives its type,
  /// default and range; the field's help, unit and default_text win). The getters call it; a
  /// reader calls it for a field it reads only on some paths (alternatives such as `trace` or
  /// `rate`), so the reference lists it whichever path a file takes.
  /// `owner`: the registry entry that reads it, when not the scenario kind being loaded.
  void describe(const Field& field, FieldDoc doc, const std::string& owner = "") const;

  /// Rejects any key not asked for, with a "did you mean" suggestion.
  void finish() const;

 private:
  YAML::Node scalar_node(const std::string& key, const char* expected);
  [[noreturn]] void fail_missing(const std::string& key, const std::string& what) const;
  std::string child_path(const std::string& key) const;

  const YamlSource* source_;
  YAML::Node node_;
  std::string path_;
  YAML::Node resolved_;
  std::set<std::string> known_;
};

/// The key in `candidates` nearest to `key` by edit distance, if it is plausibly a misspelling.
std::optional<std::string> nearest_key(const std::string& key, const std::vector<std::string>& candidates);
/// "a, b, c" for error messages.
std::string join(const std::vector<std::string>& items, const std::string& separator = ", ");

}  // namespace rlsim
