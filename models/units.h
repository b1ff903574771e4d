// Quantities as people write them in scenarios and on the command line: "900GBps", "400Gbps",
// "2us", "1.5ms", "30s", "989TFLOPS", "80GiB". Parsing is strict: a unit is required, bits and
// bytes are told apart by case (b = bit, B = byte), and nothing is clamped.
// Values come back in SI base units: bytes/s, seconds, FLOP/s, bytes.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace rlsim {

enum class Quantity {
  bandwidth,  ///< bytes per second; "400Gbps", "50GBps", "50GB/s", "1.6Tbps"
  duration,   ///< seconds; "2us", "1.5ms", "30s", "5min", "1h", "800ns"
  flop_rate,  ///< FLOP per second; "989TFLOPS", "1.98PFLOPS"
  bytes,      ///< bytes; "80GiB", "141GB", "512MiB"
};

/// The largest magnitude a quantity of this kind may have, far beyond any real cluster but finite,
/// so an absurd value (a latency of 1e307 s) is an input error, not a simulation that overflows:
/// 1 PB/s, one year, 10 EFLOP/s, 1 PB.
double largest_quantity(Quantity kind);
/// The smallest non-zero magnitude a quantity of this kind may have: 1 Mbps for a bandwidth, no
/// floor above 0 for the others.
double smallest_positive_quantity(Quantity kind);

/// Parses `text` as a quantity of the given kind: not negative, 0 or at least
/// smallest_positive_quantity(kind), at most largest_quantity(kind). On failure
/// returns nullopt and, when `why` is given, a phrase saying what was expected ("a bandwidth with a unit,
/// such as 400Gbps or 900GBps").
std::optional<double> parse_quantity(std::string_view text, Quantity kind, std::string* why = nullptr);

/// The canonical text for a value (largest prefix that keeps the number >= 1, shortest digits that
/// round-trip): 5e10 bytes/s -> "50GBps", 2e-6 s -> "2us", 8.59e10 bytes -> "80GiB".
std::string format_quantity(double value, Quantity kind);

/// What a value of this kind looks like, for error messages.
std::string_view quantity_examples(Quantity kind);

/// The whole of `text` as a finite number (strtod's syntax), or nullopt: "5abc", "", "inf" and
/// values past a double's range are refused; one too small for a normal double (1e-320) reads as
/// the nearest double, as any number in range does.
std::optional<double> parse_number(std::string_view text);

/// Shortest decimal text that reads back to the same double ("0.1", "1e+21").
std::string format_number(double value);

}  // namespace rlsim
