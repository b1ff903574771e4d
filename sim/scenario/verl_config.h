// A verl trainer config as `rlsim import verl` reads it: a nested YAML file (verl's ppo_trainer.yaml,
// or the flattened _generated_ppo_trainer.yaml of verl 0.5 on) with the `key=value` overrides of a
// launch script applied as Hydra applies them (`a.b=v` sets, `+a.b=v` adds, `++a.b=v` adds or
// sets, `~a.b` removes; values are YAML), and the two interpolations verl's configs use resolved on
// read (`${a.b}` and `${oc.select:a.b,default}`). Hydra's `defaults:` lists are not followed: a key
// the file does not hold reads as verl's default, which the caller passes.
#pragma once

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <vector>

#include "models/input_error.h"

namespace rlsim {

class VerlConfig {
 public:
  /// Reads `path` and applies `overrides` in order; InputError at the file or the override.
  static VerlConfig load(const std::string& path, const std::vector<std::string>& overrides);
  /// The same from text (tests); `file` names it in messages.
  static VerlConfig parse(const std::string& text, const std::string& file,
                          const std::vector<std::string>& overrides);

  /// Whether `key` (dotted) is set, to anything but null, after interpolation.
  bool has(const std::string& key) const { return value(key).has_value(); }
  /// `key`'s value, or `fallback` when it is unset or null; InputError at the value when it is not
  /// of the type asked for.
  std::string text_or(const std::string& key, const std::string& fallback) const;
  double number_or(const std::string& key, double fallback) const;
  long long integer_or(const std::string& key, long long fallback) const;
  bool flag_or(const std::string& key, bool fallback) const;
  /// Where `key`'s value was written: FILE:LINE:COL, or the override that set it.
  SourceLocation where(const std::string& key) const;
  const std::string& file() const { return file_; }

 private:
  std::optional<YAML::Node> value(const std::string& key, int depth = 0) const;
  std::optional<YAML::Node> node(const std::string& key) const;
  void apply(const std::string& override_text, int index);

  std::string file_;
  YAML::Node root_;
  /// Keys set by overrides and the override's text, for where().
  std::vector<std::pair<std::string, std::string>> overridden_;
};

}  // namespace rlsim
