// Small text helpers for the human-readable tables the commands print.
#pragma once

#include <cstdio>
#include <string>

namespace rlsim {

/// `value` with exactly `decimals` digits after the point ("12.30").
inline std::string fixed(double value, int decimals) {
  char text[48];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

/// `value` through one printf conversion, e.g. formatted("%.2f ms", 31.254) = "31.25 ms".
inline std::string formatted(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

/// `text` padded with spaces to `width` columns (one space added when it is already as wide).
inline std::string padded(const std::string& text, size_t width) {
  return text.size() >= width ? text + " " : text + std::string(width - text.size(), ' ');
}

}  // namespace rlsim
