// Checked YAML access with source locations, `--set` overrides and unknown-key detection.
#include "sim/scenario/yaml_reader.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <string_view>

#include "models/input_file.h"
#include "models/text_encoding.h"

namespace rlsim {
namespace {

std::string type_name(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Null: return "nothing (null)";
    case YAML::NodeType::Scalar: return "'" + node.Scalar() + "'";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Map: return "a mapping";
    case YAML::NodeType::Undefined: return "nothing";
  }
  return "something else";
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string hex_byte(unsigned char byte) {
  const char* digits = "0123456789ABCDEF";
  return {digits[byte >> 4], digits[byte & 15]};
}

bool looks_like_text(const std::string& bytes) {
  for (unsigned char c : bytes) {
    if (c == 0 || (c < 0x20 && c != '\n' && c != '\r' && c != '\t')) return false;
  }
  return true;
}

/// The line where a second document starts (a `---` at column 0 after content or after an explicit
/// first `---`, or content after the first document's `...`), or 0. YAML reserves `---` at the start of a
/// line for document markers.
int second_document_line(const std::string& text) {
  bool in_document = false;  // content or an explicit start marker seen
  bool ended = false;        // the first document's `...` seen
  int line = 1;
  for (size_t begin = 0; begin <= text.size(); ++line) {
    size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    std::string_view l(text.data() + begin, end - begin);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    auto is_marker = [&l](std::string_view m) {
      return l.substr(0, 3) == m && (l.size() == 3 || l[3] == ' ' || l[3] == '\t');
    };
    const bool blank_or_comment = l.find_first_not_of(" \t") == std::string_view::npos || l[0] == '#';
    if (is_marker("---")) {
      if (in_document || ended) return line;
      in_document = true;
    } else if (is_marker("...")) {
      ended = in_document;  // `...` ends the document: anything after it is another
    } else if (!blank_or_comment && l[0] != '%') {
      if (ended) return line;
      in_document = true;
    }
    begin = end + 1;
  }
  return 0;
}

YamlSource parse(const std::string& text, const std::string& file) {
  if (!looks_like_text(text)) {
    throw InputError({file, 1, 1}, "expected a YAML text file, found binary data");
  }
  if (const auto bad = first_invalid_utf8(text)) {
    throw InputError(location_at(text, *bad, file), "expected UTF-8 text, found the byte 0x" +
                                                        hex_byte(static_cast<unsigned char>(text[*bad])));
  }
  YamlSource source;
  source.file = file;
  try {
    // YAML::Load reads the first document only: a second would be ignored without a word. It is
    // found by its marker, not parsed (yaml-cpp can take minutes on a hostile document).
    if (const int line = second_document_line(text))
      throw InputError({file, line, 1},
                       "expected one YAML document, found a second ('---' starts another): one "
                       "scenario per file");
    source.root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw InputError({file, e.mark.line + 1, e.mark.column + 1}, "invalid YAML: " + e.msg);
  } catch (const YAML::Exception& e) {
    throw InputError({file, 1, 1}, std::string("invalid YAML: ") + e.what());
  }
  if (!source.root.IsDefined() || source.root.IsNull()) {
    throw InputError({file, 1, 1}, "expected a mapping of scenario fields, found an empty document");
  }
  return source;
}

// Splits "a.b.0.c" into its parts.
std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream stream(path);
  while (std::getline(stream, part, '.')) parts.push_back(part);
  return parts;
}

/// A list index as `--set` writes it: digits only, few enough that they cannot overflow.
bool is_index(const std::string& s) {
  return !s.empty() && s.size() <= 9 &&
         std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// `doc` with its range in whole numbers (a schema's range is a double, which INT64_MAX is not).
FieldDoc whole_range(FieldDoc doc, int64_t min, int64_t max) {
  doc.range = std::to_string(min) + " to " + std::to_string(max);
  return doc;
}

/// A schema entry's description, for a field with no default.
FieldDoc required(const ParamSpec& spec) {
  FieldDoc doc = field_doc(spec);
  doc.default_text = "required";
  return doc;
}

/// A schema entry's description, for a field that may be left out (no value, no default).
FieldDoc optional(const ParamSpec& spec) {
  FieldDoc doc = field_doc(spec);
  doc.default_text = "none";
  return doc;
}

}  // namespace

std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? separator : "") + items[i];
  return out;
}

std::optional<std::string> nearest_key(const std::string& key, const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  size_t best_distance = std::numeric_limits<size_t>::max();
  for (const auto& candidate : candidates) {
    size_t d = edit_distance(key, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = candidate;
    }
  }
  if (best && best_distance <= std::max<size_t>(2, key.size() / 3)) return best;
  return std::nullopt;
}

namespace {

/// Where a `--set` or `--unset` path leads: the mapping or list holding its last part, that part (a
/// key, or an item's index as digits) and the path with list items by index ("cluster.pools.0.nodes").
struct FieldSlot {
  YAML::Node holder;
  std::string part;
  std::string resolved_path;
};

/// Walks `path` from `root`, list items by index or by their `name`. Mappings missing on the way
/// are made when `make_missing` (`--set` writes new fields); otherwise each must be there.
FieldSlot field_slot(YAML::Node root, const std::string& path, const SourceLocation& where,
                     bool make_missing) {
  const auto parts = split_path(path);
  if (parts.empty()) throw InputError(where, "expected a field's path, found '" + path + "'");
  YAML::Node current = root;
  std::string resolved_path;
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string& part = parts[i];
    if (part.empty()) throw InputError(where, "empty component in path '" + path + "'");
    const bool last = i + 1 == parts.size();
    if (current.IsSequence()) {
      size_t index = current.size();
      if (is_index(part)) {
        index = std::stoul(part);
      } else {
        for (size_t j = 0; j < current.size(); ++j) {
          if (current[j].IsMap() && current[j]["name"] && current[j]["name"].Scalar() == part) index = j;
        }
      }
      if (index >= current.size()) {
        throw InputError(where, "'" + part + "' in '" + path + "' names no item of the list at '" +
                                    resolved_path + "' (use an index or an item's name)");
      }
      resolved_path += (resolved_path.empty() ? "" : ".") + std::to_string(index);
      if (last) return {current, std::to_string(index), resolved_path};
      current.reset(current[index]);
    } else if (current.IsMap() || current.IsNull()) {
      const std::string parent_path = resolved_path;
      resolved_path += (resolved_path.empty() ? "" : ".") + part;
      if (last && make_missing) return {current, part, resolved_path};
      if (!current[part]) {
        if (!make_missing) {
          std::vector<std::string> keys;
          if (current.IsMap()) {
            for (const auto& entry : current) keys.push_back(entry.first.Scalar());
          }
          const auto near = nearest_key(part, keys);
          throw InputError(
              where,
              "the scenario has no field '" + resolved_path + "'" +
                  (near ? " (did you mean '" + (parent_path.empty() ? "" : parent_path + ".") + *near + "'?)"
                        : std::string()));
        }
        current[part] = YAML::Node(YAML::NodeType::Map);
      }
      if (last) return {current, part, resolved_path};
      YAML::Node next = current[part];
      current.reset(next);
    } else {
      throw InputError(where, "'" + resolved_path + "' is a single value; it has no field '" + part + "'");
    }
  }
  return {};  // not reached: the loop returns at the last part
}

}  // namespace

SourceLocation YamlSource::locate(const YAML::Node& node, const std::string& path) const {
  for (const auto& [overridden, argument] : overrides) {
    if (path == overridden || path.rfind(overridden + ".", 0) == 0) {
      // The column of the value within the assignment, after the flag's "--set ".
      const size_t assignment = argument.find(' ') + 1;
      return {argument, 1, static_cast<int>(argument.find('=') - assignment + 2)};
    }
  }
  const YAML::Mark mark = node.Mark();
  if (mark.is_null()) return {file, 1, 1};
  return {file, mark.line + 1, mark.column + 1};
}

YamlSource load_yaml_file(const std::string& path) { return parse(read_input_file(path), path); }

YamlSource load_yaml_text(const std::string& text, const std::string& file) { return parse(text, file); }

void apply_override(YamlSource& source, const std::string& assignment, const std::string& flag) {
  const std::string argument = flag + " " + assignment;
  const SourceLocation arg_where{argument, 1, 1};
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) {
    throw InputError(arg_where, "expected " + flag + " path.to.field=value, found no '='");
  }
  const std::string path = assignment.substr(0, eq);
  const std::string value_text = assignment.substr(eq + 1);
  if (value_text.find_first_not_of(" \t") == std::string::npos) {
    throw InputError({argument, 1, static_cast<int>(eq + 2)},
                     "expected a value after '=' (to use a field's default, leave out the " + flag + ")");
  }
  if (const auto bad = first_invalid_utf8(assignment)) {
    throw InputError({argument, 1, static_cast<int>(*bad + 1)}, "expected UTF-8 text");
  }
  YAML::Node value;
  try {
    value = YAML::Load(value_text);
  } catch (const YAML::Exception& e) {
    throw InputError({argument, 1, static_cast<int>(eq + 2)}, "invalid YAML value: " + e.msg);
  }
  // `~` and `null` are YAML's null, which a reader takes as an absent field: the default, silently.
  if (value.IsNull()) {
    throw InputError({argument, 1, static_cast<int>(eq + 2)},
                     "expected a value after '=', found '" + value_text +
                         "' (YAML's null); to use a field's default, leave out the " + flag);
  }
  FieldSlot slot = field_slot(source.root, path, arg_where, true);
  if (slot.holder.IsSequence()) {
    slot.holder[std::stoul(slot.part)] = value;
  } else {
    slot.holder[slot.part] = value;
  }
  source.overrides[slot.resolved_path] = argument;
}

void remove_field(YamlSource& source, const std::string& path) {
  // The message names the argument as given; a position within it would add nothing.
  const SourceLocation where{"--unset " + path, 0, 0};
  FieldSlot slot = field_slot(source.root, path, where, false);
  if (slot.holder.IsSequence())
    throw InputError(where, "'" + path + "' is an item of a list; --unset removes a field of a mapping");
  slot.holder.remove(slot.part);
}

YamlReader::YamlReader(const YamlSource& source, YAML::Node node, std::string path, YAML::Node resolved)
    : source_(&source), node_(std::move(node)), path_(std::move(path)), resolved_(std::move(resolved)) {
  if (!node_.IsMap()) {
    throw InputError(source_->locate(node_, path_),
                     "expected a mapping" + std::string(path_.empty() ? "" : " for '" + path_ + "'") +
                         ", found " + type_name(node_));
  }
  std::set<std::string> seen;
  for (const auto& entry : node_) {
    const std::string key = entry.first.Scalar();
    if (!seen.insert(key).second) {
      throw InputError(source_->locate(entry.first, child_path(key)), "duplicate key '" + key + "'");
    }
  }
}

std::string YamlReader::child_path(const std::string& key) const {
  return path_.empty() ? key : path_ + "." + key;
}

bool YamlReader::has(const std::string& key) const {
  for (const auto& entry : node_) {
    if (entry.first.Scalar() == key) return !entry.second.IsNull();
  }
  return false;
}

SourceLocation YamlReader::where() const { return source_->locate(node_, path_); }

SourceLocation YamlReader::where(const std::string& key) const {
  for (const auto& entry : node_) {
    if (entry.first.Scalar() == key) return source_->locate(entry.second, child_path(key));
  }
  return where();
}

void YamlReader::fail(const std::string& key, const std::string& message) const {
  throw InputError(where(key), message);
}

void YamlReader::fail_here(const std::string& message) const { throw InputError(where(), message); }

YAML::Node YamlReader::raw(const std::string& key) {
  known_.insert(key);
  for (const auto& entry : node_) {
    if (entry.first.Scalar() == key) return entry.second;
  }
  return YAML::Node();
}

void YamlReader::fail_missing(const std::string& key, const std::string& what) const {
  // A misspelt key is the likeliest reason a required one is missing: point at it.
  for (const auto& entry : node_) {
    const std::string present = entry.first.Scalar();
    if (present != key && nearest_key(present, {key})) {
      throw InputError(source_->locate(entry.first, child_path(present)),
                       "unknown key '" + present + "'; did you mean '" + key + "'? (" + what + " '" +
                           child_path(key) + "' is missing)");
    }
  }
  fail_here("missing required " + what + " '" + child_path(key) + "'");
}

YAML::Node YamlReader::scalar_node(const std::string& key, const char* expected) {
  YAML::Node value = raw(key);
  if (!value || value.IsNull()) fail_missing(key, std::string("field (") + expected + ")");
  if (!value.IsScalar())
    fail(key, std::string("expected ") + expected + " for '" + key + "', found " + type_name(value));
  return value;
}

void YamlReader::record(const std::string& key, const YAML::Node& value) {
  known_.insert(key);
  resolved_[key] = value;
}

std::string YamlReader::text(const Field& field) {
  const std::string& key = field.key;
  describe(field, {"", "text", "", "required", "", "", {}});
  std::string value = scalar_node(key, "a text value").Scalar();
  if (value.empty()) fail(key, "expected a non-empty text value for '" + key + "'");
  record(key, YAML::Node(value));
  return value;
}

std::string YamlReader::text_or(const Field& field, const std::string& fallback) {
  const std::string& key = field.key;
  describe(field, {"", "text", "", fallback, "", "", {}});
  if (!has(key)) {
    record(key, YAML::Node(fallback));
    return fallback;
  }
  return text(key);
}

int64_t YamlReader::integer(const Field& field, int64_t min, int64_t max) {
  const std::string& key = field.key;
  describe(field, whole_range(required(ParamSpec::integer(key, 0, min, max, "")), min, max));
  const std::string expected = "a whole number from " + std::to_string(min) + " to " + std::to_string(max);
  YAML::Node value = scalar_node(key, expected.c_str());
  const std::string& s = value.Scalar();
  size_t used = 0;
  long long parsed = 0;
  try {
    parsed = std::stoll(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != s.size() || used == 0)
    fail(key, "expected " + expected + " for '" + key + "', found '" + s + "'");
  if (parsed < min || parsed > max) {
    fail(key, "expected " + expected + " for '" + key + "', found " + s);
  }
  record(key, YAML::Node(static_cast<long long>(parsed)));
  return parsed;
}

int64_t YamlReader::integer_or(const Field& field, int64_t fallback, int64_t min, int64_t max) {
  const std::string& key = field.key;
  describe(field, whole_range(field_doc(ParamSpec::integer(key, fallback, min, max, "")), min, max));
  if (!has(key)) {
    record(key, YAML::Node(static_cast<long long>(fallback)));
    return fallback;
  }
  return integer(key, min, max);
}

double YamlReader::number(const Field& field, double min, double max) {
  const std::string& key = field.key;
  describe(field, required(ParamSpec::number(key, 0.0, min, max, "")));
  const std::string expected = "a number from " + format_number(min) + " to " + format_number(max);
  YAML::Node value = scalar_node(key, expected.c_str());
  const std::string& s = value.Scalar();
  const std::optional<double> parsed = parse_number(s);
  if (!parsed || *parsed < min || *parsed > max)
    fail(key, "expected " + expected + " for '" + key + "', found '" + s + "'");
  record(key, YAML::Node(format_number(*parsed)));
  return *parsed;
}

double YamlReader::number_or(const Field& field, double fallback, double min, double max) {
  const std::string& key = field.key;
  describe(field, field_doc(ParamSpec::number(key, fallback, min, max, "")));
  if (!has(key)) {
    record(key, YAML::Node(format_number(fallback)));
    return fallback;
  }
  return number(key, min, max);
}

double YamlReader::quantity(const Field& field, Quantity kind, bool allow_zero) {
  const std::string& key = field.key;
  describe(field, required(ParamSpec::quantity_of(key, kind, 0.0, "", allow_zero)));
  const std::string expected(quantity_examples(kind));
  YAML::Node value = scalar_node(key, expected.c_str());
  std::string why;
  auto parsed = parse_quantity(value.Scalar(), kind, &why);
  if (!parsed) fail(key, "expected " + why + " for '" + key + "', found '" + value.Scalar() + "'");
  if (*parsed < 0.0 || (*parsed == 0.0 && !allow_zero)) {
    fail(key, "expected a " + std::string(allow_zero ? "non-negative" : "positive") + " value for '" + key +
                  "', found '" + value.Scalar() + "'");
  }
  record(key, YAML::Node(format_quantity(*parsed, kind)));
  return *parsed;
}

double YamlReader::quantity_or(const Field& field, Quantity kind, double fallback, bool allow_zero) {
  const std::string& key = field.key;
  describe(field, field_doc(ParamSpec::quantity_of(key, kind, fallback, "", allow_zero)));
  if (!has(key)) {
    record(key, YAML::Node(format_quantity(fallback, kind)));
    return fallback;
  }
  return quantity(key, kind, allow_zero);
}

std::optional<double> YamlReader::optional_quantity(const Field& field, Quantity kind, bool allow_zero) {
  const std::string& key = field.key;
  describe(field, optional(ParamSpec::quantity_of(key, kind, 0.0, "", allow_zero)));
  known_.insert(key);
  if (!has(key)) return std::nullopt;
  return quantity(key, kind, allow_zero);
}

bool YamlReader::flag_or(const Field& field, bool fallback) {
  const std::string& key = field.key;
  describe(field, field_doc(ParamSpec::flag(key, fallback, "")));
  if (!has(key)) {
    record(key, YAML::Node(fallback));
    return fallback;
  }
  YAML::Node value = scalar_node(key, "true or false");
  const std::string& s = value.Scalar();
  bool parsed = false;
  if (s == "true" || s == "yes" || s == "on") {
    parsed = true;
  } else if (s == "false" || s == "no" || s == "off") {
    parsed = false;
  } else {
    fail(key, "expected true or false for '" + key + "', found '" + s + "'");
  }
  record(key, YAML::Node(parsed));
  return parsed;
}

std::string YamlReader::choice_or(const Field& field, const std::vector<std::string>& choices,
                                  const std::string& fallback) {
  const std::string& key = field.key;
  describe(field, field_doc(ParamSpec::choice(key, choices, fallback, "")));
  std::string value = text_or(key, fallback);
  if (std::find(choices.begin(), choices.end(), value) == choices.end()) {
    fail(key, "unknown value '" + value + "' for '" + key + "'; valid values are: " + join(choices));
  }
  return value;
}

std::vector<std::string> YamlReader::text_list(const Field& field) {
  const std::string& key = field.key;
  describe(field, {"", "list of names", "", "required", "", "", {}});
  YAML::Node value = raw(key);
  if (!value || !value.IsSequence()) {
    fail(key, "expected a list of names for '" + key + "', found " + type_name(value));
  }
  std::vector<std::string> out;
  YAML::Node resolved(YAML::NodeType::Sequence);
  for (const auto& item : value) {
    if (!item.IsScalar() || item.Scalar().empty()) {
      throw InputError(source_->locate(item, child_path(key)),
                       "expected a name in the list '" + key + "', found " + type_name(item));
    }
    out.push_back(item.Scalar());
    resolved.push_back(item.Scalar());
  }
  record(key, resolved);
  return out;
}

std::vector<int64_t> YamlReader::integer_list_or(const Field& field, int64_t min, int64_t max) {
  const std::string& key = field.key;
  describe(field, {"",
                   "list of integers",
                   "",
                   "[]",
                   std::to_string(min) + " to " + std::to_string(max) + " each",
                   "",
                   {}});
  YAML::Node value = raw(key);
  std::vector<int64_t> out;
  YAML::Node resolved(YAML::NodeType::Sequence);
  if (value && !value.IsNull()) {
    if (!value.IsSequence())
      fail(key, "expected a list of whole numbers for '" + key + "', found " + type_name(value));
    for (const auto& item : value) {
      long long parsed = 0;
      size_t used = 0;
      const std::string s = item.IsScalar() ? item.Scalar() : "";
      try {
        parsed = std::stoll(s, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (!item.IsScalar() || used != s.size() || used == 0 || parsed < min || parsed > max) {
        throw InputError(source_->locate(item, child_path(key)),
                         "expected whole numbers from " + std::to_string(min) + " to " + std::to_string(max) +
                             " in '" + key + "', found " + type_name(item));
      }
      out.push_back(parsed);
      resolved.push_back(parsed);
    }
  }
  record(key, resolved);
  return out;
}

YamlReader YamlReader::map(const Field& field) {
  const std::string& key = field.key;
  describe(field, {"", "mapping", "", "required", "", "", {}});
  YAML::Node value = raw(key);
  if (!value || value.IsNull()) fail_missing(key, "section");
  YAML::Node resolved(YAML::NodeType::Map);
  resolved_[key] = resolved;
  return YamlReader(*source_, value, child_path(key), resolved);
}

YamlReader YamlReader::map_or_empty(const Field& field) {
  const std::string& key = field.key;
  describe(field, {"", "mapping", "", "{}", "", "", {}});
  YAML::Node value = raw(key);
  if (!value || value.IsNull()) value = YAML::Node(YAML::NodeType::Map);
  YAML::Node resolved(YAML::NodeType::Map);
  resolved_[key] = resolved;
  return YamlReader(*source_, value, child_path(key), resolved);
}

std::vector<YamlReader> YamlReader::map_list(const Field& field, bool allow_empty) {
  const std::string& key = field.key;
  describe(field, {"", "list of mappings", "", "required", allow_empty ? "" : "at least one item", "", {}});
  YAML::Node value = raw(key);
  if (!value || value.IsNull()) fail_missing(key, "list");
  if (!value.IsSequence()) fail(key, "expected a list for '" + key + "', found " + type_name(value));
  if (value.size() == 0 && !allow_empty)
    fail(key, "expected at least one item in '" + key + "', found an empty list");
  YAML::Node resolved(YAML::NodeType::Sequence);
  std::vector<YamlReader> items;
  for (size_t i = 0; i < value.size(); ++i) {
    YAML::Node item_resolved(YAML::NodeType::Map);
    resolved.push_back(item_resolved);
    items.emplace_back(*source_, value[i], child_path(key) + "." + std::to_string(i), resolved[i]);
  }
  resolved_[key] = resolved;
  return items;
}

std::vector<YamlReader> YamlReader::map_list_or_empty(const Field& field) {
  const std::string& key = field.key;
  describe(field, {"", "list of mappings", "", "[]", "", "", {}});
  if (!has(key)) {
    known_.insert(key);
    resolved_[key] = YAML::Node(YAML::NodeType::Sequence);
    return {};
  }
  return map_list(key, true);
}

void YamlReader::describe(const Field& field, FieldDoc doc, const std::string& owner) const {
  if (!source_->fields) return;
  if (!field.help.empty()) doc.help = field.help;
  if (!field.unit.empty()) doc.unit = field.unit;
  if (!field.default_text.empty()) doc.default_text = field.default_text;
  if (!field.range_text.empty()) doc.range = field.range_text;
  source_->fields->note(child_path(field.key), std::move(doc), owner);
}

void YamlReader::finish() const {
  std::vector<std::string> known(known_.begin(), known_.end());
  for (const auto& entry : node_) {
    const std::string key = entry.first.Scalar();
    if (known_.count(key)) continue;
    std::string message = "unknown key '" + key + "'" + (path_.empty() ? "" : " in '" + path_ + "'");
    if (auto suggestion = nearest_key(key, known)) {
      message += "; did you mean '" + *suggestion + "'?";
    } else {
      message += "; expected one of: " + join(known);
    }
    throw InputError(source_->locate(entry.first, child_path(key)), message);
  }
}

}  // namespace rlsim
