// The RL scenario kind (`kind: rl`, the default): an RL post-training run on a cluster, simulated
// by sim/engine. A run writes metrics.json, trace.json, resolved.yaml, report.html and, when the data
// plane's ledger is on, trajectories.jsonl; a sweep records steady-state step time, throughput, bubbles,
// utilisation, TPOT and cost per point and plots step time per combination of the swept fields
// (rl_sweep_plot.h).

#include "sim/engine/simulation.h"
#include "sim/platform/topology.h"
#include "sim/scenario/memory_check.h"
#include "sim/scenario/profile_loader.h"
#include "tools/advice/measured_advice.h"
#include "tools/kinds/rl_sweep_plot.h"
#include "tools/kinds/scenario_kind.h"
#include "tools/kinds/sweep_setup_notes.h"
#include "tools/report/html_report.h"
#include "tools/report/pricing_text.h"
#include "tools/report/run_report.h"
#include "tools/sweep/sweep_csv.h"

namespace rlsim {
namespace {

// Read from metrics.json (docs/design.md §5 names) rather than engine structs: the columns follow what
// users see in a run's own output. A p99 of fewer than kSamplesForP99 steps is their maximum, not a
// p99: the cell stays empty, as the summary prints no p99 then.
std::vector<std::string> rl_sweep_values(const nlohmann::json& m) {
  const nlohmann::json& step = m["step_time_s"];
  return {csv_number(step["steady_mean"].get<double>()),  // warm-up left out
          step["samples"].get<long>() >= kSamplesForP99 ? csv_number(step["p99"].get<double>()) : "",
          csv_number(m["throughput"]["samples_per_s"].get<double>()),
          csv_number(m["throughput"]["tokens_per_s"].get<double>()),
          csv_number(m["bubble"]["fraction"].get<double>()),
          csv_number(m["gpu_utilization"].get<double>()),
          csv_number(m["inference"]["tpot_s"]["p50"].get<double>()),
          csv_number(m["cost"]["usd_per_step"].get<double>()),
          csv_number(m["cost"]["usd_per_1m_tokens"].get<double>())};
}

class FinishedRlRun : public FinishedRun {
 public:
  FinishedRlRun(std::shared_ptr<const LoadedScenario> loaded, SimulationResult result)
      : loaded_(std::move(loaded)), result_(std::move(result)) {}

  void write_outputs(StagedOutput& output, const OutputOptions& options) const override {
    nlohmann::json m = metrics();
    if (!options.measured_advice.is_null()) m["advice"]["measured"] = options.measured_advice;
    output.write("metrics.json", m.dump(2) + "\n");
    output.write_streamed("trace.json", [&](std::ostream& out) {
      write_trace_json(out, loaded_->scenario, result_.timeline, result_.instance_load, options.trace);
    });
    output.write("resolved.yaml", loaded_->resolved_yaml);
    if (loaded_->scenario.cluster.dataplane.ledger)
      output.write("trajectories.jsonl", ledger_jsonl(result_.ledger));
    const std::string shown = options.measured_advice_text.empty()
                                  ? summary()
                                  : with_measured_advice(summary(), options.measured_advice_text);
    output.write("report.html", run_report_html(loaded_->scenario, result_.metrics, result_.timeline,
                                                shown + options.summary_note, loaded_->resolved_yaml,
                                                options.measured_advice_text));
  }
  std::string summary() const override { return summary_table(loaded_->scenario, result_.metrics); }
  nlohmann::json metrics() const override { return metrics_json(loaded_->scenario, result_.metrics); }
  std::vector<std::string> sweep_row() const override { return rl_sweep_values(metrics()); }

 private:
  std::shared_ptr<const LoadedScenario> loaded_;
  SimulationResult result_;
};

class CheckedRlScenario : public CheckedScenario {
 public:
  explicit CheckedRlScenario(LoadedScenario loaded)
      : loaded_(std::make_shared<const LoadedScenario>(std::move(loaded))) {
    Topology topology(loaded_->scenario.cluster);  // reject unusable topologies before anything runs
    check_policy(loaded_->scenario);
  }

  const std::string& resolved_yaml() const override { return loaded_->resolved_yaml; }
  std::vector<std::string> input_files() const override {
    const Scenario& s = loaded_->scenario;
    return {s.file, s.workload.trajectories_path, s.profile};
  }
  std::string description() const override {
    const Scenario& s = loaded_->scenario;
    int gpus = 0;
    for (const auto& pool : s.cluster.pools) gpus += pool.gpus();
    return s.name + ": " + std::to_string(gpus) + " GPUs in " + std::to_string(s.cluster.pools.size()) +
           " pools, model " + s.model.name + ", policy " + s.policy.name;
  }
  std::string memory_report() const override {
    const Scenario& s = loaded_->scenario;
    return memory_summary(s) + pricing_basis_line(s, s.profile.empty() ? "" : load_profile(s.profile).card);
  }
  std::unique_ptr<FinishedRun> simulate(const SimulationOptions& options) const override {
    return std::make_unique<FinishedRlRun>(loaded_, rlsim::simulate(loaded_->scenario, options));
  }

 private:
  std::shared_ptr<const LoadedScenario> loaded_;  // shared with the runs it simulates
};

class RlKind : public ScenarioKind {
 public:
  using ScenarioKind::ScenarioKind;

  std::unique_ptr<CheckedScenario> load(const std::string& file, const LoadOptions& options) const override {
    return std::make_unique<CheckedRlScenario>(load_scenario(file, options));
  }
  const std::vector<std::string>& sweep_columns() const override {
    static const std::vector<std::string> columns{"step_time_s",  "step_time_p99_s", "samples_per_s",
                                                  "tokens_per_s", "bubble_fraction", "gpu_utilization",
                                                  "tpot_p50_s",   "usd_per_step",    "usd_per_1m_tokens"};
    return columns;
  }
  std::string default_sweep_objective() const override { return "step_time_s"; }
  SweepKindReport sweep_report(const SweepTable& table, const SweepManifest& manifest,
                               const SweepObjective& objective) const override {
    SweepKindReport report;
    for (const auto& axis : manifest.axes) report.columns.push_back(axis.path);
    for (const char* c :
         {"step_time_s", "samples_per_s", "bubble_fraction", "usd_per_step", "usd_per_1m_tokens"})
      report.columns.emplace_back(c);
    report.plot = rl_sweep_plot(table, manifest, swept_setup_loaded_by(manifest, load_scenario), objective);
    report.findings = sweep_setup_notes(table, manifest, "rollout", [&](const LoadOptions& options) {
      return load_scenario(manifest.scenario, options).scenario;
    });
    return report;
  }
};

}  // namespace
RLSIM_REGISTER_SCENARIO_KIND(RlKind, "rl", 1, "an RL post-training run on a cluster (the default kind)");
}  // namespace rlsim
