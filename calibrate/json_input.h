// Parsing JSON that a user handed rlsim (measurement files, sweep manifests): syntax errors,
// numbers out of range and nesting deeper than any real file are input errors at FILE:LINE:COL,
// never a library exception or a stack that runs out.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace rlsim {

/// Deepest nesting accepted: rlsim's own files nest 4 levels.
constexpr int kMaxJsonDepth = 32;

/// The parsed document; InputError (naming `file`) on anything that is not valid, bounded JSON.
nlohmann::json parse_json_input(const std::string& text, const std::string& file);

}  // namespace rlsim
