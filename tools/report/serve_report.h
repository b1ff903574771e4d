// What a serving run (`kind: serve`) writes and prints: metrics.json with its `serving` object
// (latency percentiles in ms, throughput, goodput, batch occupancy, KV use), requests.csv (one line
// per request: its times and tokens), trace.json (the GPUs' timeline plus, per instance, counter
// tracks of running and waiting sequences and KV slots in use), the summary, and a sweep row.
// A percentile is written (null in JSON, "-" in text) only when enough samples lie above it
// (enough_for_quantile).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "sim/engine/serving/serve_simulation.h"
#include "sim/scenario/serve_spec.h"
#include "tools/report/chrome_trace.h"

namespace rlsim {

/// The share of a closed loop's requests sent in lock-step (ServingMetrics::sent_together_fraction)
/// from which the summary and a sweep's findings say how to read its TTFT.
constexpr double kLockStepNoteFraction = 0.1;

nlohmann::json serve_metrics_json(const ServeScenario& scenario, const ServeResult& result);
std::string serve_requests_csv(const ServeResult& result);
/// Writes trace.json: as write_trace_json (run_report.h), requests named by their id.
void write_serve_trace_json(std::ostream& out, const ServeScenario& scenario, const ServeResult& result,
                            const TraceOptions& options);
std::string serve_summary(const ServeScenario& scenario, const ServeResult& result);

/// A sweep row's serving columns; `sent_together_fraction` is empty unless the workload is a closed
/// loop narrower than its requests; `meets_target` is 1 when the p99 TTFT and TPOT are within the
/// workload's SLO (those it sets; 1 without one), so only such points can be a sweep's best.
const std::vector<std::string>& serve_sweep_columns();
/// Whether `m`'s p99 TTFT and TPOT are within the SLO `workload` sets (true when it sets none).
bool meets_slo(const ServeWorkloadSpec& workload, const ServingMetrics& m);
std::vector<std::string> serve_sweep_values(const ServeScenario& scenario, const ServeResult& result);

}  // namespace rlsim
