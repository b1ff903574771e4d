// The advice under each row of `rlsim compare` is what the comparison measured: the best policy
// better beyond both intervals (or that the row is best, or that none is clearly better), then the
// rule of thumb's pick and whether what was measured backs it.
#include <catch2/catch.hpp>

#include "tools/report/compare_ranking.h"

using namespace rlsim;

namespace {

ComparedPolicy measured(const std::string& policy, double step_s, const std::string& recommendation) {
  nlohmann::json m;
  m["step_time_s"]["steady_mean"] = step_s;
  m["advice"]["recommendation"] = recommendation;
  return {policy, m, ""};
}

}  // namespace

TEST_CASE("the advice under a compare row says what the comparison measured of it") {
  const CompareObjective step = *find_compare_objective("step_time_s");
  const std::vector<ComparedPolicy> rows{measured("disaggregated", 100.0, "label_scheduling"),
                                         measured("labels", 80.0, "reduce_no_work_launched"),
                                         measured("streaming", 50.0, "label_scheduling"),
                                         {"colocated", nullptr, "does not fit"}};
  CHECK(rank_rows(rows, step) == std::vector<size_t>{2, 1, 0});
  // Labels measured 20% better than disaggregated, streaming 50%: the measured advice is streaming,
  // and the rule of thumb's labels is backed.
  CHECK(measured_advice(rows, 0, step) ==
        "measured: streaming, 50.0% better; rule of thumb: label_scheduling (measured labels: 20.0% better)");
  CHECK(measured_change(rows, 0, step) == "streaming 50.0%");
  // The winner: the rule of thumb's labels measured 60% slower, and it says so.
  CHECK(measured_advice(rows, 2, step) ==
        "measured: streaming is the best measured; rule of thumb: label_scheduling (measured labels: 60.0% "
        "worse, so this comparison does not back it)");
  CHECK(measured_change(rows, 2, step) == "best");
  // A recommendation no compared policy applies: only what was measured.
  CHECK(measured_advice(rows, 1, step) ==
        "measured: streaming, 37.5% better; rule of thumb: reduce_no_work_launched");
  CHECK(measured_change(rows, 3, step) == "-");  // skipped: nothing measured, nothing advised
}

namespace {

/// A measured row whose steady step time has a 95 % interval of ± `half` (none when negative).
ComparedPolicy with_interval(const std::string& policy, double step_s, double half) {
  ComparedPolicy row = measured(policy, step_s, "none");
  row.metrics["steps"] = 8;
  row.metrics["steady_state"]["enough_to_rank"] = half >= 0.0;
  row.metrics["step_time_s"]["steady_ci95"] = nlohmann::json::array();
  if (half >= 0.0) row.metrics["step_time_s"]["steady_ci95"] = {step_s - half, step_s + half};
  return row;
}

}  // namespace

TEST_CASE("compare advises only a policy better beyond both 95 % intervals") {
  const CompareObjective step = *find_compare_objective("step_time_s");
  // 50 ± 2 against 53 ± 3: the gap is within the intervals, so nothing is advised; 40 ± 1 is beyond.
  std::vector<ComparedPolicy> rows{with_interval("streaming", 50.0, 2.0),
                                   with_interval("overlap", 53.0, 3.0)};
  CHECK_FALSE(clearly_better(rows, 1, step));
  CHECK(measured_change(rows, 1, step) == "-");
  CHECK_THAT(measured_advice(rows, 1, step),
             Catch::StartsWith(
                 "measured: none clearly better (streaming is 5.7% better, within the 95 % intervals)"));
  rows.push_back(with_interval("labels", 40.0, 1.0));
  REQUIRE(clearly_better(rows, 1, step));
  CHECK(*clearly_better(rows, 1, step) == 2);
  CHECK(measured_change(rows, 1, step) == "labels 24.5%");
}

TEST_CASE("compare names a winner only when the gap exceeds both 95 % intervals") {
  const CompareObjective step = *find_compare_objective("step_time_s");
  const CompareObjective rate = *find_compare_objective("samples_per_s");
  const CompareObjective bubble = *find_compare_objective("bubble_fraction");
  // 50 ± 2 against 60 ± 3: apart by 10, more than 5.
  const std::vector<ComparedPolicy> clear{with_interval("streaming", 50.0, 2.0),
                                          with_interval("overlap", 60.0, 3.0)};
  CHECK_THAT(winner_line(clear, step), !Catch::Contains("not a clear winner"));
  // 50 ± 4 against 55 ± 3: apart by 5, less than 7.
  const std::vector<ComparedPolicy> open{with_interval("streaming", 50.0, 4.0),
                                         with_interval("overlap", 55.0, 3.0)};
  CHECK_THAT(winner_line(open, step),
             Catch::Contains("not a clear winner: streaming 50.00 s ± 4.00 s and overlap 55.00 s ± 3.00 s") &&
                 Catch::Contains("--set workload.steps=16"));
  // samples/s carries the step time's relative interval (8 % and 5.5 % of its value).
  CHECK(*objective_half_width(rate, [] {
    auto m = with_interval("streaming", 50.0, 4.0).metrics;
    m["throughput"]["samples_per_s"] = 10.0;
    return m;
  }()) == Approx(0.8));
  // Objectives not proportional to the step time carry no interval.
  CHECK(!objective_half_width(bubble, open[0].metrics));
  CHECK_THAT(winner_line(open, bubble), !Catch::Contains("not a clear winner"));
  // Too few steady steps: no winner from the step time.
  const std::vector<ComparedPolicy> short_runs{with_interval("streaming", 50.0, -1.0),
                                               with_interval("overlap", 60.0, 3.0)};
  CHECK_THAT(winner_line(short_runs, step), Catch::Contains("too few steady steps to rank on") &&
                                                Catch::Contains("--set workload.steps=16"));
}
