// The validation record (scenarios/validation/record.csv): per case, what setup it mirrors (kind,
// model, cards: case_nearness.h's fingerprint) beside its verdict and error in the suite's last full
// run. `rlsim validation` writes DIR/record.csv; the committed copy, which a test holds equal to the
// suite's current result, lets `rlsim run` say which validated cases are nearest to a scenario and
// how far rlsim was from the measurements there, without simulating them (DESIGN: a number rlsim
// prints is only as good as the closest validated case).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tools/validation/case_nearness.h"
#include "tools/validation/validation_verdict.h"

namespace rlsim {

struct RecordedCase {
  std::string name;
  SetupFingerprint setup;
  std::string metric;
  std::optional<double> error;  ///< signed relative error; absent when the case was skipped
  double tolerance = 0;
  std::string verdict;  ///< verdict_name(): pass, fail, known_gap, skipped
};

/// record.csv: header `case,kind,model,cards,metric,published,simulated,error,tolerance,verdict`,
/// one row per case in manifest order; `cards` is the fingerprint's cards joined by ';'.
/// `setups` holds each row's fingerprint, in the same order.
std::string record_csv(const std::vector<ValidationRow>& rows, const std::vector<SetupFingerprint>& setups);
/// Reads a record; InputError at FILE:LINE when the header or a row is not the record's.
std::vector<RecordedCase> read_record(const std::string& path);

/// Lines for a run's summary: which recorded cases are nearest to `setup` (nearest_cases), their
/// verdicts and, per metric, the range of their errors, and the command that runs them (`scenario`:
/// the file and its overrides as arguments); or that no case shares its model or a card. `record`
/// names the file the cases were read from. With the run's `metrics` (its metrics.json), each metric
/// the run also has says what its value would measure at those errors (value / (1 + error)): the
/// interval the validation record puts around this run's figure.
std::string validated_near_text(const SetupFingerprint& setup, const std::vector<RecordedCase>& cases,
                                const std::string& record, const std::string& scenario,
                                const nlohmann::json* metrics = nullptr);
/// validated_near_text for the scenario `scenario` (as arguments) resolved as `resolved_yaml`, from
/// the committed record (scenarios/validation/record.csv under the data directory, shown relative
/// to the working directory); when the record cannot be read, a line saying so instead.
std::string validated_near_from_record(const std::string& resolved_yaml, const std::string& scenario,
                                       const nlohmann::json* metrics = nullptr);

}  // namespace rlsim
