// Advice by simulation: before `rlsim run` simulates a scenario, the registered remedies' trials
// (remedy.h) are simulated too, in child processes, at most a given number of them (a count, not
// seconds, so that the same scenario gives the same advice on any machine); once the run has
// its steady step time, a trial is advised only when its own steady step time is shorter by more
// than either run's 95 % interval (and by at least 0.5 %), best first, with its cost and
// staleness beside it and the `--set` that reproduces it. A trial that did not help, or could not
// run the scenario, is never advised; both are listed. metrics.json keeps every trial's outcome.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/scenario/scenario_loader.h"
#include "tools/advice/remedy.h"
#include "tools/advice/trial_run.h"

namespace rlsim {

/// One trial's outcome: what its simulation measured, or why it did not run.
struct TrialOutcome : TrialFigures {
  RemedyTrial trial;
};

struct MeasuredAdvice {
  std::vector<TrialOutcome> outcomes;  ///< in the order tried
  int not_tried = 0;                   ///< trials beyond the limit
};

/// Simulates the first `most` of the remedies' trials on `file` with `options` (each trial's
/// --set after them), `jobs` at a time.
MeasuredAdvice try_remedies(const std::string& file, const LoadOptions& options, const Scenario& scenario,
                            int jobs, int most);

/// The lines `rlsim run` prints after its summary: the trials that measured better than the run's
/// own steady step time (`metrics` is its metrics.json), best first, then the rest.
std::string measured_advice_text(const MeasuredAdvice& advice, const nlohmann::json& metrics,
                                 const std::string& scenario_arguments);
/// `summary` with its rule-of-thumb `advice:` line replaced by `measured` (the text above).
std::string with_measured_advice(const std::string& summary, const std::string& measured);
/// metrics.json's `advice.measured`: every trial with its outcome and whether it helped.
nlohmann::json measured_advice_json(const MeasuredAdvice& advice, const nlohmann::json& metrics);

}  // namespace rlsim
