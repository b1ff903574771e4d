// Judging one validation case: the simulated figure read from a run's metrics.json by its dotted
// path, its signed relative error against the published figure, and the verdict — pass (within
// tolerance), fail, known gap (outside tolerance but marked as such in the manifest), or skipped
// (the case needs a scenario kind this build does not have).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "tools/validation/validation_manifest.h"

namespace rlsim {

enum class Verdict { pass, fail, known_gap, skipped };

/// How a verdict reads in validation.csv's `pass` column and the printed table.
const char* verdict_name(Verdict verdict);

struct ValidationRow {
  ValidationCase spec;
  std::optional<double> simulated;  ///< absent when skipped
  double error = 0;                 ///< (simulated - published) / published
  Verdict verdict = Verdict::skipped;
  std::string note;  ///< why skipped, or that a known gap has closed
};

/// The number at dotted `path` ("serving.tpot_s.p50") in `metrics`; nullopt when there is none.
std::optional<double> metric_at(const nlohmann::json& metrics, const std::string& path);
/// The figure `text` (a known gap's mark) quotes as the gap it was marked at: a number before a
/// per-cent sign that is |gap_error| as written to its own precision ("24 %" for -0.244); none when
/// the text quotes no such figure. A mark that quotes it goes stale when the error moves.
std::optional<double> quoted_gap_percent(const std::string& text, double gap_error);
/// A relative error as "+12.3 %".
std::string signed_percent(double fraction);
/// (simulated - published) / published; `published` is never 0 (the manifest refuses it).
double relative_error(double simulated, double published);
/// The row for a case that ran and gave `simulated`.
ValidationRow judge_case(const ValidationCase& spec, double simulated);
/// The row for a case that did not run, with the reason.
ValidationRow skipped_case(const ValidationCase& spec, const std::string& reason);

}  // namespace rlsim
