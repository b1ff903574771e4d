// What `rlsim validation` writes and prints: validation.csv (one row per case: case, source,
// metric, measured, simulated, error, tolerance, pass), the table of cases with their verdicts,
// and a summary that lists every known gap and skipped case by name, so none passes unnoticed.
#pragma once

#include <string>
#include <vector>

#include "tools/validation/validation_verdict.h"

namespace rlsim {

/// validation.csv: header `case,source,metric,measured,simulated,error,tolerance,pass`; `measured`
/// is the published figure, `error` the signed relative error, `pass` the verdict's name.
std::string validation_csv(const std::vector<ValidationRow>& rows);
/// The printed table, then the counts, then each known gap, closed gap, failure and skipped case.
std::string validation_table(const std::string& manifest, const std::vector<ValidationRow>& rows);
/// True when no case failed (known gaps and skipped cases do not fail a run).
bool validation_passed(const std::vector<ValidationRow>& rows);

}  // namespace rlsim
