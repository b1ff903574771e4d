// JsonLocator: where each value of a JSON text starts, by JSON pointer ("/points/3/seconds"), so
// errors found after parsing can still say FILE:LINE:COL. nlohmann::json keeps no positions.
#pragma once

#include <map>
#include <string>

#include "models/input_error.h"

namespace rlsim {

class JsonLocator {
 public:
  /// Indexes `text`, which must already be valid JSON.
  JsonLocator(const std::string& text, std::string file);
  /// Location of the value at `pointer` (or of the nearest enclosing value that exists).
  SourceLocation where(std::string pointer) const;
  /// Location of a byte offset.
  SourceLocation at_offset(size_t offset) const;

 private:
  std::string file_;
  const std::string* text_;
  std::map<std::string, size_t> offsets_;
};

}  // namespace rlsim
