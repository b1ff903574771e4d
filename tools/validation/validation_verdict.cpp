// Verdicts of validation cases.
#include "tools/validation/validation_verdict.h"

#include <cmath>
#include <cstdio>
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
  } else if (!within) {
    row.verdict = Verdict::known_gap;
  }
  return row;
}

ValidationRow skipped_case(const ValidationCase& spec, const std::string& reason) {
  return {spec, std::nullopt, 0, Verdict::skipped, reason};
}

}  // namespace rlsim
