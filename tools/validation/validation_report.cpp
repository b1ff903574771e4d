// validation.csv and the printed validation table.
#include "tools/validation/validation_report.h"

#include <algorithm>

#include "tools/report/text_format.h"
#include "tools/sweep/sweep_csv.h"

namespace rlsim {
namespace {

std::string percent_cell(double fraction) { return formatted("%+.1f%%", 100.0 * fraction); }

std::string verdict_text(const ValidationRow& row) {
  switch (row.verdict) {
    case Verdict::pass: return row.note.empty() ? "pass" : "pass (known gap closed)";
    case Verdict::fail: return "FAIL";
    case Verdict::known_gap: return "KNOWN GAP";
    case Verdict::skipped: return "skipped";
  }
  return "?";
}

std::string count_line(const std::vector<ValidationRow>& rows) {
  int counts[4] = {0, 0, 0, 0};
  for (const auto& row : rows) ++counts[static_cast<int>(row.verdict)];
  return std::to_string(rows.size()) + " cases: " + std::to_string(counts[0]) + " pass, " +
         std::to_string(counts[1]) + " fail, " + std::to_string(counts[2]) + " known gap, " +
         std::to_string(counts[3]) + " skipped\n";
}

}  // namespace

std::string validation_csv(const std::vector<ValidationRow>& rows) {
  std::string out = csv_line({"case", "source", "metric", "measured", "simulated", "error", "tolerance",
                              "pass", "first_run_error"}) +
                    "\n";
  for (const auto& row : rows) {
    const bool ran = row.simulated.has_value();
    const std::optional<double>& first = row.spec.first_run_error;
    out += csv_line({row.spec.name, row.spec.source, row.spec.metric, csv_number(row.spec.published),
                     ran ? csv_number(*row.simulated) : "", ran ? csv_number(row.error) : "",
                     csv_number(row.spec.tolerance), verdict_name(row.verdict),
                     first ? csv_number(*first) : ""}) +
           "\n";
  }
  return out;
}

std::string validation_table(const std::string& manifest, const std::vector<ValidationRow>& rows) {
  size_t name_width = 4, metric_width = 6;
  for (const auto& row : rows) {
    name_width = std::max(name_width, row.spec.name.size());
    metric_width = std::max(metric_width, row.spec.metric.size());
  }
  std::string out = "rlsim validation: " + manifest + "\n  " + padded("case", name_width + 1) +
                    padded("metric", metric_width + 1) + padded("published", 12) + padded("simulated", 12) +
                    padded("error", 9) + padded("tol", 6) + "verdict\n";
  for (const auto& row : rows) {
    const bool ran = row.simulated.has_value();
    out += "  " + padded(row.spec.name, name_width + 1) + padded(row.spec.metric, metric_width + 1) +
           padded(formatted("%.6g", row.spec.published), 12) +
           padded(ran ? formatted("%.5g", *row.simulated) : "-", 12) +
           padded(ran ? percent_cell(row.error) : "-", 9) +
           padded(formatted("%.0f%%", 100.0 * row.spec.tolerance), 6) + verdict_text(row) + "\n";
  }
  out += count_line(rows);
  for (const auto& row : rows) {
    const std::string figures = row.simulated
                                    ? formatted("%.4g", *row.simulated) + " vs published " +
                                          formatted("%.4g", row.spec.published) + " " + row.spec.unit + " (" +
                                          percent_cell(row.error) + ", tolerance " +
                                          formatted("%.0f%%", 100.0 * row.spec.tolerance) + ")"
                                    : "";
    if (row.verdict == Verdict::known_gap) {
      const std::string first_run =
          row.spec.first_run_error ? " (first run " + percent_cell(*row.spec.first_run_error) + ")" : "";
      out += "known gap, not yet within tolerance: " + row.spec.name + ": simulated " + figures + first_run +
             " - " + row.spec.known_gap + "\n";
    } else if (row.verdict == Verdict::fail) {
      out += "FAIL: " + row.spec.name + ": simulated " + figures + (row.note.empty() ? "" : ": " + row.note) +
             "\n";
    } else if (row.verdict == Verdict::skipped) {
      out += "skipped: " + row.note + ": " + row.spec.name + "\n";
    } else if (!row.note.empty()) {
      out += row.note + ": " + row.spec.name + ": simulated " + figures + "\n";
    }
  }
  return out;
}

bool validation_passed(const std::vector<ValidationRow>& rows) {
  for (const auto& row : rows) {
    if (row.verdict == Verdict::fail) return false;
  }
  return true;
}

}  // namespace rlsim
