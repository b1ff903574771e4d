// What an AFD run writes and prints: metrics.json (AFD keys: TPOT, throughput per GPU, per-layer
// attention / transfer / FFN-group collective / FFN time, FFN and link utilisation, cost, the
// analytical ping-pong estimate beside the simulated figures), trace.json (Chrome trace events: per
// GPU a compute track with attention or FFN spans and a transfer track with dispatch and combine
// spans, and on FFN GPUs in expert groups all-gather and reduce-scatter spans), the summary
// table on stdout, and the row a sweep records for one point.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "sim/afd/afd_simulation.h"
#include "sim/scenario/afd_spec.h"

namespace rlsim {

nlohmann::json afd_metrics_json(const AfdScenario& scenario, const AfdMetrics& metrics);
/// Writes trace.json's text to `out`.
void write_afd_trace_json(std::ostream& out, const AfdScenario& scenario, const Timeline& timeline);
std::string afd_summary_table(const AfdScenario& scenario, const AfdMetrics& metrics);

/// The metric columns a sweep records for an AFD point, and one point's values in that order.
const std::vector<std::string>& afd_sweep_columns();
std::vector<std::string> afd_sweep_values(const AfdScenario& scenario, const AfdMetrics& metrics);

}  // namespace rlsim
