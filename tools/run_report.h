// What a run writes and prints: metrics.json (DESIGN §5 keys), trace.json (Chrome trace events, one
// track per GPU, opens in Perfetto or chrome://tracing) and the summary table on stdout.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "sim/engine/simulation.h"
#include "sim/scenario/scenario.h"

namespace rlsim {

nlohmann::json metrics_json(const Scenario& scenario, const RunMetrics& metrics);
nlohmann::json trace_json(const Scenario& scenario, const Timeline& timeline);
std::string summary_table(const Scenario& scenario, const RunMetrics& metrics);

}  // namespace rlsim
