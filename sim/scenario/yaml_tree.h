// A YAML text as a JSON tree (mappings as objects, sequences as arrays, every scalar as its text),
// for code outside sim/scenario that compares or walks YAML without yaml-cpp (rlsim diff).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace rlsim {

/// InputError at FILE:LINE:COL when `text` is not YAML.
nlohmann::json yaml_tree(const std::string& text, const std::string& file);

}  // namespace rlsim
