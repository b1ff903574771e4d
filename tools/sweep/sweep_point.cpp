// Checking and running one sweep point.
#include "tools/sweep/sweep_point.h"

#include "sim/afd/afd_simulation.h"
#include "sim/engine/simulation.h"
#include "sim/platform/topology.h"
#include "sim/scenario/afd_reader.h"
#include "tools/report/afd_report.h"
#include "tools/report/run_report.h"
#include "tools/sweep/sweep_csv.h"

namespace rlsim {
namespace {

const std::vector<std::string>& rl_columns() {
  static const std::vector<std::string> columns{"step_time_s",  "step_time_p99_s", "samples_per_s",
                                                "tokens_per_s", "bubble_fraction", "gpu_utilization",
                                                "tpot_p50_ms",  "usd_per_step",    "usd_per_1m_tokens"};
  return columns;
}

// Read from metrics.json (docs/design.md §5 names) rather than engine structs: the columns follow what
// users see in a run's own output.
std::vector<std::string> rl_values(const nlohmann::json& m) {
  return {csv_number(m["step_time_s"]["mean"].get<double>()),
          csv_number(m["step_time_s"]["p99"].get<double>()),
          csv_number(m["throughput"]["samples_per_s"].get<double>()),
          csv_number(m["throughput"]["tokens_per_s"].get<double>()),
          csv_number(m["bubble"]["fraction"].get<double>()),
          csv_number(m["gpu_utilization"].get<double>()),
          csv_number(1e3 * m["inference"]["tpot_s"]["p50"].get<double>()),
          csv_number(m["cost"]["usd_per_step"].get<double>()),
          csv_number(m["cost"]["usd_per_1m_tokens"].get<double>())};
}

}  // namespace

const std::vector<std::string>& sweep_metric_columns(ScenarioKind kind) {
  return kind == ScenarioKind::afd ? afd_sweep_columns() : rl_columns();
}

void check_sweep_point(const std::string& file, const LoadOptions& options, ScenarioKind kind) {
  if (kind == ScenarioKind::afd) {
    const LoadedAfdScenario loaded = load_afd_scenario(file, options);
    Topology topology(loaded.scenario.cluster, ServiceZones::optional);
    return;
  }
  const LoadedScenario loaded = load_scenario(file, options);
  Topology topology(loaded.scenario.cluster);
  check_policy(loaded.scenario);
}

std::vector<std::string> run_sweep_point(const std::string& file, const LoadOptions& options,
                                         ScenarioKind kind) {
  if (kind == ScenarioKind::afd) {
    const LoadedAfdScenario loaded = load_afd_scenario(file, options);
    return afd_sweep_values(loaded.scenario, simulate_afd(loaded.scenario).metrics);
  }
  const LoadedScenario loaded = load_scenario(file, options);
  const SimulationResult result = simulate(loaded.scenario);
  return rl_values(metrics_json(loaded.scenario, result.metrics));
}

}  // namespace rlsim
