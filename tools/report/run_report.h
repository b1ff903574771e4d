// What a run writes and prints: metrics.json (docs/design.md §5 keys), trace.json (Chrome trace events, one
// track per GPU, opens in Perfetto or chrome://tracing), the summary table on stdout and, when the
// scenario asks, trajectories.jsonl (the data plane's ledger of calls).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/engine/simulation.h"
#include "sim/scenario/scenario.h"

namespace rlsim {

nlohmann::json metrics_json(const Scenario& scenario, const RunMetrics& metrics);
/// trace.json's text.
/// The run's trace: a track per GPU, and a counter track per rollout instance (`instance_load`).
std::string trace_json(const Scenario& scenario, const Timeline& timeline,
                       const std::vector<std::vector<LoadSample>>& instance_load);
std::string summary_table(const Scenario& scenario, const RunMetrics& metrics);
/// trajectories.jsonl: one JSON object per recorded LLM call, in recording order.
std::string ledger_jsonl(const std::vector<LedgerEntry>& ledger);

}  // namespace rlsim
