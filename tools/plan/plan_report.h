// What `rlsim plan` prints and writes: the front of step time against cost, the chosen arrangement
// and why it beats the runner-up, how many arrangements were simulated of how many possible;
// plan.csv (every arrangement), front.svg and the header of plan.yaml.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/scenario/scenario.h"
#include "tools/plan/plan_search.h"
#include "tools/plan/plan_space.h"

namespace rlsim {

struct PlanReportInput {
  const Scenario& scenario;
  const std::vector<CardStock>& stock;
  const PlanSpaceOptions& space;
  const PlanSearchOptions& search;
  bool by_cost = false;  ///< --objective usd_per_step
  const PoolShape& pools;
  std::string scenario_arguments;  ///< the file and its --set, as typed
  std::string out_dir;
};

struct PlanOutcome {
  std::vector<size_t> front;
  std::optional<size_t> chosen;
  std::optional<size_t> runner_up;  ///< the next best simulated by the same choice
};

PlanOutcome plan_outcome(const std::vector<PlanPoint>& points, const PlanReportInput& in);

std::string plan_text(const std::vector<PlanPoint>& points, const PlanOutcome& outcome,
                      const PlanReportInput& in);
/// One row per arrangement in the space's order.
std::string plan_csv(const std::vector<PlanPoint>& points, const PoolShape& pools);
std::string plan_front_svg(const std::vector<PlanPoint>& points, const PlanOutcome& outcome,
                           const PlanReportInput& in);
/// Comment lines for the top of plan.yaml: what it is and how it was chosen.
std::string plan_yaml_header(const PlanPoint& chosen, const PlanReportInput& in);

}  // namespace rlsim
