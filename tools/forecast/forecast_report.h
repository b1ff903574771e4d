// What `rlsim forecast` prints and writes: per policy the run's hours and dollars, its first and
// last step, where the bottleneck moves between rollout and training, where one policy overtakes
// another; forecast.json (the totals), forecast.csv (every simulated sample) and forecast.svg (step
// time along the run).
#pragma once

#include <string>
#include <vector>

#include "tools/forecast/forecast_model.h"

namespace rlsim {

struct PolicyForecast {
  std::string policy;
  std::vector<ForecastSample> samples;  ///< by step
  ForecastTotals totals;
};

struct ForecastReportInput {
  std::string scenario_name;
  std::string model;
  int steps = 0;
  bool scheduled = false;  ///< the scenario has a length schedule
  RunExtras extras;
  std::string out_dir;
};

std::string forecast_text(const std::vector<PolicyForecast>& policies, const ForecastReportInput& in);
/// forecast.json: per policy the run's hours, dollars, step and extra seconds, evaluations,
/// checkpoints and how many steps were simulated.
std::string forecast_json(const std::vector<PolicyForecast>& policies, const ForecastReportInput& in);
std::string forecast_csv(const std::vector<PolicyForecast>& policies);
std::string forecast_svg(const std::vector<PolicyForecast>& policies, const ForecastReportInput& in);

}  // namespace rlsim
