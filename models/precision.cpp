// Precision names and element sizes.
#include "models/precision.h"

#include <cassert>

namespace rlsim {

double bytes_per_element(Precision p) {
  switch (p) {
    case Precision::fp32: return 4.0;
    case Precision::bf16:
    case Precision::fp16: return 2.0;
    case Precision::fp8:
    case Precision::int8: return 1.0;
    case Precision::int4: return 0.5;
    case Precision::fp4: return 0.5 + 1.0 / 16.0;  // NVFP4: an E4M3 scale per 16 values
  }
  assert(false && "unhandled precision");
  return 0.0;
}

std::string_view to_string(Precision p) {
  switch (p) {
    case Precision::fp32: return "fp32";
    case Precision::bf16: return "bf16";
    case Precision::fp16: return "fp16";
    case Precision::fp8: return "fp8";
    case Precision::int8: return "int8";
    case Precision::int4: return "int4";
    case Precision::fp4: return "fp4";
  }
  assert(false && "unhandled precision");
  return "?";
}

const std::vector<Precision>& all_precisions() {
  static const std::vector<Precision> all{Precision::fp32, Precision::bf16, Precision::fp16, Precision::fp8,
                                          Precision::int8, Precision::int4, Precision::fp4};
  return all;
}

std::string precision_names() {
  std::string names;
  for (Precision p : all_precisions()) names += (names.empty() ? "" : ", ") + std::string(to_string(p));
  return names;
}

std::optional<Precision> parse_precision(std::string_view text) {
  for (Precision p : all_precisions()) {
    if (to_string(p) == text) return p;
  }
  return std::nullopt;
}

}  // namespace rlsim
