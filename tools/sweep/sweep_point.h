// One grid point of a sweep: check it (load the scenario with the point's `--set` assignments, no
// simulation) or run it (simulate and return its metric cells). Works for both scenario kinds: AFD
// points record the AFD columns (afd_report.h), RL points the step, throughput, bubble and cost
// figures of metrics.json. Running simulates, so it belongs in a process of its own (one SimGrid
// engine per process).
#pragma once

#include <string>
#include <vector>

#include "sim/scenario/scenario_loader.h"

namespace rlsim {

/// The metric columns of a sweep over scenarios of `kind`.
const std::vector<std::string>& sweep_metric_columns(ScenarioKind kind);

/// Loads and checks the point; InputError when it is invalid.
void check_sweep_point(const std::string& file, const LoadOptions& options, ScenarioKind kind);

/// Simulates the point; its cells in sweep_metric_columns(kind) order.
std::vector<std::string> run_sweep_point(const std::string& file, const LoadOptions& options,
                                         ScenarioKind kind);

}  // namespace rlsim
