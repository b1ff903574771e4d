// Numeric precisions of weights, activations and KV cache, and their sizes in bytes.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rlsim {

enum class Precision { fp32, bf16, fp16, fp8, int8, int4 };

/// Bytes per element (int4 is 0.5).
double bytes_per_element(Precision p);
std::string_view to_string(Precision p);
/// Parses "bf16", "fp16", "fp8", "int8", "int4", "fp32"; nullopt for anything else.
std::optional<Precision> parse_precision(std::string_view text);
/// Every precision, in declaration order (for listings and error messages).
const std::vector<Precision>& all_precisions();

}  // namespace rlsim
