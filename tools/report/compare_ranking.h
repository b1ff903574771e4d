// Which policy of a comparison wins, and why: the rows ranked by a declared objective (steady-state
// step time by default), the winner with its margin over the runner-up and the price it pays
// (staleness in weight versions, TPOT), and per row the measured advice: the best policy measured
// better beyond both intervals, with the rule of thumb's pick checked against what was measured.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tools/report/compare_report.h"

namespace rlsim {

/// A figure of metrics.json that a comparison can be ranked by.
struct CompareObjective {
  std::string name;               ///< the --objective value and the CSV column
  std::vector<std::string> path;  ///< where metrics.json holds it
  bool lower_is_better = true;
  std::string unit;  ///< shown after the value
  std::string meaning;
  /// Whether the objective is the steady step time or proportional to it over the same steps
  /// (samples/s, USD/step), so that it carries the step time's relative 95 % interval.
  bool follows_step_time = false;
};

/// The number at `path` in a metrics.json, or 0 when it is absent or not a number.
double json_number(const nlohmann::json& j, const std::vector<std::string>& path);

/// Every objective, the default (steady-state step time) first.
const std::vector<CompareObjective>& compare_objectives();
/// The objective named `name`, or nothing.
std::optional<CompareObjective> find_compare_objective(const std::string& name);
/// The objective's value in one run's metrics.json.
double objective_value(const CompareObjective& objective, const nlohmann::json& metrics);

/// Half the width of the objective's 95 % interval in one run's metrics.json (from the steady step
/// times' interval), or nothing when the objective has none or the run too few steady steps.
std::optional<double> objective_half_width(const CompareObjective& objective, const nlohmann::json& metrics);

/// Indices of the measured rows (skipped ones left out), best first; ties keep the input order.
std::vector<size_t> rank_rows(const std::vector<ComparedPolicy>& rows, const CompareObjective& objective);
/// "winner by …: P …, X% better than the runner-up Q …; price paid: staleness …, TPOT …" or, with
/// one measured row, what it measured. Where the objective has intervals, a runner-up within the
/// winner's reach (the two 95 % intervals overlap) or a run with too few steady steps is said to
/// leave the ranking open instead.
std::string winner_line(const std::vector<ComparedPolicy>& rows, const CompareObjective& objective);
/// Whether row `a` is better than row `b` on the objective beyond both 95 % intervals (by 0.5 %
/// where either has none).
bool better_beyond_intervals(const std::vector<ComparedPolicy>& rows, size_t a, size_t b,
                             const CompareObjective& objective);
/// The best row that is better than `row` beyond both intervals: the change this comparison
/// measured to help it; none when no row is.
std::optional<size_t> clearly_better(const std::vector<ComparedPolicy>& rows, size_t row,
                                     const CompareObjective& objective);
/// The table's advice cell: "best", "streaming 54.6%" (clearly_better and by how much) or "-".
std::string measured_change(const std::vector<ComparedPolicy>& rows, size_t row,
                            const CompareObjective& objective);
/// For one row: what was measured to help it (clearly_better, or that none is beyond the intervals,
/// or that it is the best), then the rule of thumb's recommendation and, where the comparison ran
/// the policy that applies it, how that did (saying so when it does not back the advice).
std::string measured_advice(const std::vector<ComparedPolicy>& rows, size_t row,
                            const CompareObjective& objective);

}  // namespace rlsim
