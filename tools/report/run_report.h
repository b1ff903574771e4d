// What a run writes and prints: metrics.json (docs/design.md §5 keys), trace.json (Chrome trace events,
// one track per instance or GPU, opens in Perfetto or chrome://tracing), the summary table on stdout
// and, when the scenario asks, trajectories.jsonl (the data plane's ledger of calls).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "sim/engine/simulation.h"
#include "sim/scenario/scenario.h"
#include "tools/report/chrome_trace.h"

namespace rlsim {

nlohmann::json metrics_json(const Scenario& scenario, const RunMetrics& metrics);
/// Writes trace.json's text to `out`: a track per instance (per GPU with `options.gpu_tracks`) and
/// per GPU outside instances, counter tracks per rollout instance (`instance_load`) and, with
/// `options.requests`, a slice per LLM call (tools/report/request_slices.h).
void write_trace_json(std::ostream& out, const Scenario& scenario, const Timeline& timeline,
                      const std::vector<std::vector<LoadSample>>& instance_load, const TraceOptions& options);
std::string summary_table(const Scenario& scenario, const RunMetrics& metrics);
/// trajectories.jsonl: one JSON object per recorded LLM call, in recording order.
std::string ledger_jsonl(const std::vector<LedgerEntry>& ledger);

}  // namespace rlsim
