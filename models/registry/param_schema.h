// ParamSchema and ParamValues: a plug-in's parameters declared once — key, type, unit, default,
// range and help — and the values read for one use of it, each with where it came from. The schema
// is what `rlsim list` prints and what the YAML layer reads against (sim/scenario/param_reader.h);
// the plug-in reads its values by key. Quantities are in SI units (seconds, bytes, bytes/s).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "models/input_error.h"
#include "models/units.h"

namespace rlsim {

enum class ParamType { integer, number, quantity, flag, choice };

struct ParamSpec {
  std::string key;
  ParamType type = ParamType::number;
  Quantity quantity = Quantity::duration;  ///< the kind, for ParamType::quantity
  std::string unit;                        ///< shown beside the value ("s", "B/s", "" for a count)
  std::variant<int64_t, double, bool, std::string> fallback;  ///< the default, declared only here
  double min = 0.0, max = 0.0;                                ///< inclusive range (integer, number, quantity)
  /// ParamType::integer: the same range, exact (INT64_MAX has no double).
  int64_t whole_min = 0, whole_max = 0;
  bool allow_zero = false;           ///< quantity: whether 0 is valid
  std::vector<std::string> choices;  ///< ParamType::choice
  std::string help;                  ///< one line: what it changes, and the trade-off

  static ParamSpec integer(std::string key, int64_t fallback, int64_t min, int64_t max, std::string help,
                           std::string unit = "");
  static ParamSpec number(std::string key, double fallback, double min, double max, std::string help,
                          std::string unit = "");
  static ParamSpec quantity_of(std::string key, Quantity kind, double fallback, std::string help,
                               bool allow_zero = false);
  static ParamSpec flag(std::string key, bool fallback, std::string help);
  static ParamSpec choice(std::string key, std::vector<std::string> choices, std::string fallback,
                          std::string help);

  /// The kind of value, for listings ("integer", "number", "duration", "flag", "choice").
  std::string type_text() const;
  /// The default as a person writes it ("1", "0.9", "25GBps", "true", "recompute").
  std::string default_text() const;
  /// The accepted values ("0 to 1000", "> 0 s", "recompute | swap").
  std::string range_text() const;
};

using ParamSchema = std::vector<ParamSpec>;

/// Whether `schema` has a parameter `key`.
bool declares(const ParamSchema& schema, const std::string& key);

/// The values of one plug-in's parameters, read and checked against its schema.
class ParamValues {
 public:
  using Value = std::variant<int64_t, double, bool, std::string>;

  void set(const std::string& key, Value value, SourceLocation where);

  int64_t integer(const std::string& key) const;
  double number(const std::string& key) const;  ///< number or quantity (SI units)
  bool flag(const std::string& key) const;
  const std::string& text(const std::string& key) const;  ///< choice
  /// The value of `spec`'s key as a person writes it ("8192", "25GBps", "swap"); its default where unset.
  std::string text_of(const ParamSpec& spec) const;
  /// Where the value came from (its YAML line and column, or the block's when defaulted).
  const SourceLocation& where(const std::string& key) const;
  bool has(const std::string& key) const { return values_.count(key) > 0; }

  /// Every default of `schema`, located at `where` (for plug-ins made in code, not from YAML).
  static ParamValues defaults(const ParamSchema& schema, const SourceLocation& where = {"(default)", 0, 0});
  /// These values plus the default of every key of `schema` not among them.
  ParamValues with_defaults(const ParamSchema& schema) const;

 private:
  struct Located {
    Value value;
    SourceLocation where;
  };
  const Located& get(const std::string& key) const;
  std::map<std::string, Located> values_;
};

}  // namespace rlsim
