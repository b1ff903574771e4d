// Numeric precisions of weights, activations and KV cache, and their sizes in bytes.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rlsim {

/// fp4 is NVIDIA's NVFP4: 4-bit E2M1 values in blocks of 16, each block with an FP8 (E4M3) scale
/// (NVIDIA, "Introducing NVFP4 for Efficient and Accurate Low-Precision Inference", 2025), run
/// W4A4 on cards with FP4 tensor cores (Blackwell). int4 is weight-only (W4A16).
enum class Precision { fp32, bf16, fp16, fp8, int8, int4, fp4 };

/// Bytes per element: int4 0.5; fp4 0.5625, its 4 bits plus a one-byte scale per 16 elements.
double bytes_per_element(Precision p);
/// Whether moving `p` to fp8 would save memory (fp4 and int4 are already narrower): the memory
/// checks and the serve summary offer fp8 as a remedy only then.
inline bool wider_than_fp8(Precision p) { return bytes_per_element(p) > bytes_per_element(Precision::fp8); }
std::string_view to_string(Precision p);
/// Parses "bf16", "fp16", "fp8", "int8", "int4", "fp4", "fp32"; nullopt for anything else.
std::optional<Precision> parse_precision(std::string_view text);
/// Every precision, in declaration order (for listings and error messages).
const std::vector<Precision>& all_precisions();
/// Their names, comma-separated, for "valid values are: …" messages.
std::string precision_names();

}  // namespace rlsim
