// Unit tables and the strict parser behind Quantity.
#include "models/units.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <system_error>
#include <vector>

namespace rlsim {
namespace {

struct UnitSuffix {
  std::string_view suffix;
  double factor;         // multiply the number by this, then divide by `divisor`, to get SI base units
  double divisor = 1.0;  // for units below the base one: 5us is 5 / 1e6, which 5e-6 is, not 5 * 1e-6
};

const std::vector<UnitSuffix>& suffixes(Quantity kind) {
  static const std::vector<UnitSuffix> bandwidth{
      {"TBps", 1e12},    {"GBps", 1e9},      {"MBps", 1e6},      {"KBps", 1e3},     {"kBps", 1e3},
      {"Bps", 1.0},      {"TB/s", 1e12},     {"GB/s", 1e9},      {"MB/s", 1e6},     {"KB/s", 1e3},
      {"B/s", 1.0},      {"Tbps", 1e12 / 8}, {"Gbps", 1e9 / 8},  {"Mbps", 1e6 / 8}, {"Kbps", 1e3 / 8},
      {"kbps", 1e3 / 8}, {"bps", 1.0, 8.0},  {"Tb/s", 1e12 / 8}, {"Gb/s", 1e9 / 8}, {"Mb/s", 1e6 / 8}};
  static const std::vector<UnitSuffix> duration{{"ns", 1.0, 1e9}, {"us", 1.0, 1e6}, {"ms", 1.0, 1e3},
                                                {"min", 60.0},    {"s", 1.0},       {"h", 3600.0}};
  static const std::vector<UnitSuffix> flop_rate{
      {"PFLOPS", 1e15}, {"TFLOPS", 1e12}, {"GFLOPS", 1e9}, {"MFLOPS", 1e6}, {"FLOPS", 1.0}};
  static const std::vector<UnitSuffix> bytes{{"TiB", 1099511627776.0},
                                             {"GiB", 1073741824.0},
                                             {"MiB", 1048576.0},
                                             {"KiB", 1024.0},
                                             {"TB", 1e12},
                                             {"GB", 1e9},
                                             {"MB", 1e6},
                                             {"KB", 1e3},
                                             {"kB", 1e3},
                                             {"B", 1.0}};
  switch (kind) {
    case Quantity::bandwidth: return bandwidth;
    case Quantity::duration: return duration;
    case Quantity::flop_rate: return flop_rate;
    case Quantity::bytes: return bytes;
  }
  return bytes;
}

// Units used when writing values back out, largest first.
const std::vector<UnitSuffix>& output_units(Quantity kind) {
  static const std::vector<UnitSuffix> bandwidth{
      {"TBps", 1e12}, {"GBps", 1e9}, {"MBps", 1e6}, {"KBps", 1e3}, {"Bps", 1.0}};
  static const std::vector<UnitSuffix> duration{{"h", 3600.0}, {"min", 60.0}, {"s", 1.0},
                                                {"ms", 1e-3},  {"us", 1e-6},  {"ns", 1e-9}};
  static const std::vector<UnitSuffix> flop_rate{
      {"PFLOPS", 1e15}, {"TFLOPS", 1e12}, {"GFLOPS", 1e9}, {"FLOPS", 1.0}};
  static const std::vector<UnitSuffix> bytes{{"TiB", 1099511627776.0},
                                             {"TB", 1e12},
                                             {"GiB", 1073741824.0},
                                             {"GB", 1e9},
                                             {"MiB", 1048576.0},
                                             {"MB", 1e6},
                                             {"KiB", 1024.0},
                                             {"KB", 1e3},
                                             {"B", 1.0}};
  switch (kind) {
    case Quantity::bandwidth: return bandwidth;
    case Quantity::duration: return duration;
    case Quantity::flop_rate: return flop_rate;
    case Quantity::bytes: return bytes;
  }
  return bytes;
}

}  // namespace

std::string_view quantity_examples(Quantity kind) {
  switch (kind) {
    case Quantity::bandwidth: return "a bandwidth with a unit, such as 400Gbps, 900GBps or 50GB/s";
    case Quantity::duration: return "a duration with a unit, such as 2us, 1.5ms, 30s or 5min";
    case Quantity::flop_rate: return "a compute rate with a unit, such as 989TFLOPS or 1.98PFLOPS";
    case Quantity::bytes: return "a size with a unit, such as 80GiB, 141GB or 512MiB";
  }
  return "a quantity with a unit";
}

double largest_quantity(Quantity kind) {
  switch (kind) {
    case Quantity::bandwidth: return 1e15;
    case Quantity::duration: return 365.0 * 24 * 3600;
    case Quantity::flop_rate: return 1e19;
    case Quantity::bytes: return 1e15;
  }
  return 0.0;
}

double smallest_positive_quantity(Quantity kind) {
  // A link slower than 1 Mbps is no cluster link (a dial-up modem's 56 kbps would price a
  // weight sync in years); other kinds have no physical floor above 0. Only bandwidths have one,
  // which parse_quantity's message names.
  return kind == Quantity::bandwidth ? 1e6 / 8 : 0.0;
}

std::optional<double> parse_number(std::string_view text) {
  const std::string copy(text);
  char* end = nullptr;
  const double number = std::strtod(copy.c_str(), &end);  // underflow: the nearest double, kept
  if (end == copy.c_str() || end != copy.c_str() + copy.size() || !std::isfinite(number)) return std::nullopt;
  return number;
}

std::optional<double> parse_quantity(std::string_view text, Quantity kind, std::string* why) {
  auto fail = [&]() -> std::optional<double> {
    if (why) *why = std::string(quantity_examples(kind));
    return std::nullopt;
  };
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  if (text.empty()) return fail();

  double number = 0.0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(begin, end, number);
  if (ec != std::errc() || ptr == begin) return fail();
  std::string_view rest(ptr, static_cast<size_t>(end - ptr));
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  for (const UnitSuffix& unit : suffixes(kind)) {
    if (rest == unit.suffix) {
      double value = number * unit.factor / unit.divisor;
      if (!std::isfinite(value)) return fail();
      if (value < 0.0) {
        if (why) *why = "a positive value, " + std::string(quantity_examples(kind));
        return std::nullopt;
      }
      if (value > 0.0 && value < smallest_positive_quantity(kind)) {
        if (why) *why = std::string(quantity_examples(kind)) + ", at least 1Mbps (or 0 where 0 is allowed)";
        return std::nullopt;
      }
      if (value > largest_quantity(kind)) {
        if (why)
          *why = std::string(quantity_examples(kind)) + ", at most " +
                 format_quantity(largest_quantity(kind), kind);
        return std::nullopt;
      }
      return value;
    }
  }
  return fail();
}

std::string format_number(double value) {
  std::array<char, 64> buffer{};
  auto [ptr, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  if (ec != std::errc()) return "nan";
  return std::string(buffer.data(), ptr);
}

std::string format_quantity(double value, Quantity kind) {
  // Among the units that keep the number >= 1, the one with the shortest text wins (80GB, not
  // 74.5058059692GiB); ties go to the larger unit. Digits are rounded to 12 significant first so
  // 400Gbps prints as 50GBps, not 49.99999999999999GBps.
  std::string best;
  if (value == 0.0) {
    for (const UnitSuffix& unit : output_units(kind)) {
      if (unit.factor == 1.0) return "0" + std::string(unit.suffix);
    }
  }
  for (const UnitSuffix& unit : output_units(kind)) {
    if (std::fabs(value) < unit.factor && unit.factor != output_units(kind).back().factor) continue;
    char text[40];
    std::snprintf(text, sizeof text, "%.12g", value / unit.factor);
    std::string candidate = format_number(std::strtod(text, nullptr)) + std::string(unit.suffix);
    if (best.empty() || candidate.size() < best.size()) best = candidate;
  }
  return best;
}

}  // namespace rlsim
