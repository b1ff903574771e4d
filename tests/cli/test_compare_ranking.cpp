// The advice under each row of `rlsim compare` agrees with what the comparison measured: it says
// how the policy applying the recommendation did, says when that measurement does not back the
// advice, and names the best measured policy (or that the row is it).
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
  // Labels measured 20% better than disaggregated: the advice is backed; streaming is best.
  CHECK(measured_advice(rows, 0, step) ==
        "advisor: label_scheduling; measured labels: 20.0% better; best measured: streaming, 50.0% better");
  // The winner advised to adopt labels, which measured 60% slower: said so, and that it is the best.
  CHECK(measured_advice(rows, 2, step) ==
        "advisor: label_scheduling; measured labels: 60.0% worse, so this comparison does not back the "
        "advice; streaming is the best measured");
  // A recommendation no compared policy applies: only the best measured.
  CHECK(measured_advice(rows, 1, step) ==
        "advisor: reduce_no_work_launched; best measured: streaming, 37.5% better");
}
