// The best point of a sweep (tools/sweep/sweep_objective.h) from small hand-written tables: ranked
// by the kind's figure in its direction, ties and single points said as such, points that do not
// fit or miss the target left out, and --objective checked against the kind's columns.
#include <catch2/catch.hpp>

#include "models/input_error.h"
#include "tools/sweep/sweep_objective.h"

using namespace rlsim;

namespace {

/// A row of a table over one axis `x`: its value, the figure, and fits_memory, meets_target and
/// invalid_reason (by default: it fits, meets the target, and ran).
struct Row {
  Row(std::string x_value, std::string figure_cell, std::string fits_cell = "1", std::string meets_cell = "1",
      std::string reason_cell = "")
      : x(std::move(x_value)),
        figure(std::move(figure_cell)),
        fits(std::move(fits_cell)),
        meets(std::move(meets_cell)),
        reason(std::move(reason_cell)) {}
  std::string x, figure, fits, meets, reason;
};

/// The table of `rows` with the figure column `figure`; `manifest` gets its one axis.
SweepTable table_of(const std::string& figure, const std::vector<Row>& rows, SweepManifest& manifest) {
  SweepAxis axis{"x", {}};
  for (const Row& r : rows) axis.values.push_back(r.x);
  manifest.axes = {axis};
  manifest.points = static_cast<long>(rows.size());
  SweepTable table;
  table.header = {"point", "x", figure, "meets_target", kFitsMemoryColumn, kInvalidReasonColumn};
  for (size_t k = 0; k < rows.size(); ++k) {
    const Row& r = rows[k];
    table.rows[static_cast<long>(k)] = {std::to_string(k), r.x, r.figure, r.meets, r.fits, r.reason};
  }
  return table;
}

}  // namespace

TEST_CASE("a sweep's best point by the objective, in its direction, with the margin to the runner-up") {
  SweepManifest manifest;
  const SweepTable times = table_of("step_time_s", {{"1", "60"}, {"2", "48"}, {"4", "50"}}, manifest);
  CHECK(sweep_winner_line(times, manifest, sweep_objective("step_time_s")) ==
        "best by step_time_s (lower is better): point 1 (x=2) 48, 4.0% better than the runner-up point 2 "
        "(x=4) 50\n");
  const SweepTable rates = table_of("samples_per_s", {{"1", "3"}, {"2", "5"}, {"4", "4"}}, manifest);
  CHECK(sweep_winner_line(rates, manifest, sweep_objective("samples_per_s")) ==
        "best by samples_per_s (higher is better): point 1 (x=2) 5, 25.0% better than the runner-up point 2 "
        "(x=4) 4\n");
}

TEST_CASE("a sweep's best point: ties, one qualifying point, and none") {
  SweepManifest manifest;
  const SweepTable tie = table_of("step_time_s", {{"64", "53.9"}, {"128", "53.9"}}, manifest);
  CHECK_THAT(
      sweep_winner_line(tie, manifest, sweep_objective("step_time_s")),
      Catch::Contains("point 0 (x=64) 53.9, tied with point 1 (x=128) 53.9 (the grid's first is named)"));
  // The fastest point does not fit and the next misses the target: only the slowest qualifies.
  const SweepTable one = table_of(
      "tpot_s", {{"a", "0.01", "0", "0", "does not fit"}, {"b", "0.02", "1", "0"}, {"c", "0.03"}}, manifest);
  CHECK(sweep_winner_line(one, manifest, sweep_objective("tpot_s")) ==
        "best by tpot_s (lower is better): point 2 (x=c) 0.03, the only point that qualifies\n");
  const SweepTable none = table_of("tpot_s", {{"a", "0.01", "1", "0"}}, manifest);
  CHECK_THAT(sweep_winner_line(none, manifest, sweep_objective("tpot_s")),
             Catch::EndsWith("no point meets the target\n"));
  const SweepTable unfit = table_of("tpot_s", {{"a", "", "0", "0", "does not fit"}}, manifest);
  CHECK_THAT(sweep_winner_line(unfit, manifest, sweep_objective("tpot_s")),
             Catch::EndsWith("no point fits in memory\n"));
}

TEST_CASE("a sweep objective must name one of the kind's figures") {
  const std::vector<std::string> columns{"step_time_s", "samples_per_s", "meets_target"};
  CHECK(chosen_sweep_objective("", "step_time_s", columns).column == "step_time_s");
  CHECK_FALSE(chosen_sweep_objective("samples_per_s", "step_time_s", columns).lower_is_better);
  CHECK_THROWS_WITH(chosen_sweep_objective("speed", "step_time_s", columns),
                    Catch::Contains("--objective speed:1:1") &&
                        Catch::Contains("expected one of this kind's figures: step_time_s, samples_per_s;"));
  CHECK_THROWS_AS(chosen_sweep_objective("meets_target", "step_time_s", columns), InputError);
}
