// Verdicts of validation cases.
#include "tools/validation/validation_verdict.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace rlsim {

const char* verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::pass: return "pass";
    case Verdict::fail: return "fail";
    case Verdict::known_gap: return "known_gap";
    case Verdict::skipped: return "skipped";
  }
  return "?";
}

std::optional<double> metric_at(const nlohmann::json& metrics, const std::string& path) {
  const nlohmann::json* node = &metrics;
  std::stringstream parts(path);
  std::string key;
  while (std::getline(parts, key, '.')) {
    if (!node->is_object() || !node->contains(key)) return std::nullopt;
    node = &(*node)[key];
  }
  if (!node->is_number()) return std::nullopt;
  return node->get<double>();
}

std::string signed_percent(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.1f %%", 100.0 * fraction);
  return text;
}

std::optional<double> quoted_gap_percent(const std::string& text, double gap_error) {
  const double gap = 100.0 * std::abs(gap_error);
  // Every number written before a per-cent sign ("24 %", "+24.4%", "-61.8 %"), unsigned.
  for (size_t i = 0; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i])) ||
        (i > 0 && (std::isdigit(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '.')))
      continue;
    size_t end = i;
    while (end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.'))
      ++end;
    size_t sign = end;
    while (sign < text.size() && text[sign] == ' ') ++sign;
    if (sign >= text.size() || text[sign] != '%') continue;
    const std::string digits = text.substr(i, end - i);
    const double quoted = std::strtod(digits.c_str(), nullptr);
    // As written to its own precision: "24" quotes 23.5 to 24.5, "24.4" quotes 24.35 to 24.45.
    const size_t dot = digits.find('.');
    const double half_step =
        0.5 * std::pow(10.0, -static_cast<double>(dot == std::string::npos ? 0 : digits.size() - dot - 1));
    if (std::abs(quoted - gap) <= half_step + 1e-9) return quoted;
  }
  return std::nullopt;
}

double relative_error(double simulated, double published) { return (simulated - published) / published; }

ValidationRow judge_case(const ValidationCase& spec, double simulated) {
  ValidationRow row{spec, simulated, relative_error(simulated, spec.published), Verdict::pass, ""};
  const bool within = std::abs(row.error) <= spec.tolerance;
  if (within && !spec.known_gap.empty()) {
    row.note = "known gap closed: now within tolerance, drop its known_gap mark";
  } else if (!within && spec.known_gap.empty()) {
    row.verdict = Verdict::fail;
  } else if (!within && std::abs(row.error) > std::abs(spec.gap_error.value_or(row.error)) + kGapGrowth) {
    row.verdict = Verdict::fail;
    row.note = "known gap grew from " + signed_percent(*spec.gap_error) + " to " + signed_percent(row.error) +
               ", more than " + std::to_string(static_cast<int>(kGapGrowth * 100)) + " points";
  } else if (!within && spec.gap_error && std::abs(row.error - *spec.gap_error) > kGapGrowth &&
             quoted_gap_percent(spec.known_gap, *spec.gap_error)) {
    row.verdict = Verdict::fail;
    row.note = "stale mark: its text quotes the gap it was marked at (" + signed_percent(*spec.gap_error) +
               "), the case now measures " + signed_percent(row.error) + ": rewrite the text and gap_error";
  } else if (!within) {
    row.verdict = Verdict::known_gap;
  }
  return row;
}

ValidationRow skipped_case(const ValidationCase& spec, const std::string& reason) {
  return {spec, std::nullopt, 0, Verdict::skipped, reason};
}

}  // namespace rlsim
