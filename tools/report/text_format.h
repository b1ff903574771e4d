// Small text helpers for the human-readable tables the commands print.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

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

/// A fraction as a percentage with one decimal, no space: 0.1234 -> "12.3%".
inline std::string percent_of(double fraction) { return formatted("%.1f%%", 100.0 * fraction); }

/// A duration in the unit that reads best: "850 us", "31.25 ms", "48.73 s", "12.4 min", "2.6 h".
inline std::string readable_duration(double seconds) {
  const double magnitude = seconds < 0 ? -seconds : seconds;
  if (magnitude == 0.0) return "0 s";
  if (magnitude < 1e-3) return formatted("%.0f us", seconds * 1e6);
  if (magnitude < 1.0) return formatted(magnitude < 0.01 ? "%.2f ms" : "%.1f ms", seconds * 1e3);
  if (magnitude < 120.0) return formatted("%.2f s", seconds);
  if (magnitude < 7200.0) return formatted("%.1f min", seconds / 60.0);
  return formatted("%.1f h", seconds / 3600.0);
}

/// `text` with XML's special characters escaped, for SVG and HTML text and attributes.
inline std::string xml_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

/// `items` joined by `separator` ("a, b, c").
inline std::string joined(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}

/// `text` padded with spaces to `width` columns (one space added when it is already as wide).
inline std::string padded(const std::string& text, size_t width) {
  return text.size() >= width ? text + " " : text + std::string(width - text.size(), ' ');
}

}  // namespace rlsim
