// The AFD scenario kind (`kind: afd`): one attention-FFN-disaggregated decode instance, simulated
// layer by layer by sim/afd. A run writes metrics.json, trace.json and resolved.yaml; a sweep
// records the AFD columns (tools/report/afd_report.h), may default to the scenario's own `sweep:`
// grid, and reports per series the best batch under the TPOT target and the knee.
#include <algorithm>

#include "sim/afd/afd_simulation.h"
#include "sim/platform/topology.h"
#include "sim/scenario/afd_reader.h"
#include "sim/scenario/memory_check.h"
#include "tools/kinds/afd_sweep_findings.h"
#include "tools/kinds/scenario_kind.h"
#include "tools/report/afd_report.h"
#include "tools/report/html_report.h"
#include "tools/report/text_format.h"

namespace rlsim {
namespace {

class FinishedAfdRun : public FinishedRun {
 public:
  FinishedAfdRun(std::shared_ptr<const LoadedAfdScenario> loaded, AfdResult result)
      : loaded_(std::move(loaded)), result_(std::move(result)) {}

  void write_outputs(StagedOutput& output, const OutputOptions& options) const override {
    output.write("metrics.json", metrics().dump(2) + "\n");
    output.write_streamed("trace.json", [&](std::ostream& out) {
      write_afd_trace_json(out, loaded_->scenario, result_.timeline);
    });
    output.write("resolved.yaml", loaded_->resolved_yaml);
    output.write("report.html", html_page("rlsim: " + loaded_->scenario.name + " (AFD decode)",
                                          {{"Summary", html_pre(summary() + options.summary_note)},
                                           {"Inputs (resolved.yaml)", html_pre(loaded_->resolved_yaml)}}));
  }
  std::string summary() const override { return afd_summary_table(loaded_->scenario, result_.metrics); }
  nlohmann::json metrics() const override { return afd_metrics_json(loaded_->scenario, result_.metrics); }
  std::vector<std::string> sweep_row() const override {
    return afd_sweep_values(loaded_->scenario, result_.metrics);
  }

 private:
  std::shared_ptr<const LoadedAfdScenario> loaded_;
  AfdResult result_;
};

class CheckedAfdScenario : public CheckedScenario {
 public:
  explicit CheckedAfdScenario(LoadedAfdScenario loaded)
      : loaded_(std::make_shared<const LoadedAfdScenario>(std::move(loaded))) {
    Topology topology(loaded_->scenario.cluster, ServiceZones::optional);  // pools must reach each other
  }

  const std::string& resolved_yaml() const override { return loaded_->resolved_yaml; }
  std::vector<std::string> input_files() const override {
    return {loaded_->scenario.file, loaded_->scenario.profile};
  }
  std::string description() const override {
    const AfdScenario& s = loaded_->scenario;
    return s.name + ": AFD, model " + s.model.name + ", " + std::to_string(s.afd.attention_gpus) +
           " attention GPUs on " + s.afd.attention_pool + " + " + std::to_string(s.afd.ffn_gpus) +
           " FFN GPUs on " + s.afd.ffn_pool + ", batch " + std::to_string(s.afd.batch) + " in " +
           std::to_string(s.afd.micro_batches) + " micro-batches";
  }
  std::string memory_report() const override {
    const AfdScenario& s = loaded_->scenario;
    const AfdDeploymentSpec& d = s.afd;
    const InferenceMemory m = afd_deployment_memory(s);
    const double held = static_cast<double>(afd_most_sequences_per_gpu(d));
    const double kv = m.kv_bytes_per_token * held * static_cast<double>(d.context);
    const double ffn = afd_ffn_memory_fraction(s.model, s.cluster.pool(d.ffn_pool)->card, d.ffn_gpus,
                                               d.ffn_tp, d.precisions.weights, d.activation_memory_fraction);
    return "  attention GPU (" + d.attention_pool + "): weights " + gibibytes(m.weight_bytes) +
           " + reserve " + gibibytes(m.reserve_bytes) + " + KV " + gibibytes(kv) + " (" +
           formatted("%.0f", held) + " sequences of " + std::to_string(d.context) + " tokens) = " +
           formatted("%.0f %%", 100.0 * m.used_fraction(held * static_cast<double>(d.context))) + " of " +
           gibibytes(m.capacity_bytes) + "; KV capacity " + formatted("%.0f", m.kv_capacity_tokens) +
           " tokens over " + std::to_string(d.attention_gpus) + " GPUs\n" + "  FFN GPU (" + d.ffn_pool +
           "): expert weights + reserve = " + formatted("%.0f %%", 100.0 * ffn) + " of its memory\n";
  }
  std::vector<SweepAxis> default_sweep_axes() const override {
    std::vector<SweepAxis> axes;
    for (const auto& spec : loaded_->scenario.sweep) {
      axes.push_back(parse_sweep_axis(spec.path, spec.values,
                                      {loaded_->scenario.file + " (sweep.params." + spec.path + ")", 0, 0}));
    }
    return axes;
  }
  std::unique_ptr<FinishedRun> simulate(const SimulationOptions& options) const override {
    return std::make_unique<FinishedAfdRun>(loaded_, simulate_afd(loaded_->scenario, options));
  }

 private:
  std::shared_ptr<const LoadedAfdScenario> loaded_;  // shared with the runs it simulates
};

class AfdKind : public ScenarioKind {
 public:
  using ScenarioKind::ScenarioKind;

  std::unique_ptr<CheckedScenario> load(const std::string& file, const LoadOptions& options) const override {
    return std::make_unique<CheckedAfdScenario>(load_afd_scenario(file, options));
  }
  const std::vector<std::string>& sweep_columns() const override { return afd_sweep_columns(); }
  std::string default_sweep_objective() const override { return "tokens_per_s_per_gpu"; }
  bool has_requests() const override { return false; }  // one decode instance, layer by layer
  SweepKindReport sweep_report(const SweepTable& table, const SweepManifest& manifest,
                               const SweepObjective& objective) const override {
    SweepKindReport report;
    // The batch is the table's own "batch" column; the other axes name each row's series.
    for (const auto& axis : manifest.axes) {
      if (axis.path != kAfdBatchAxis) report.columns.push_back(axis.path);
    }
    for (const char* c :
         {"batch", "tpot_s", "tokens_per_s_per_gpu", "attention_s_per_layer", "transfer_s_per_layer"}) {
      report.columns.emplace_back(c);
    }
    // Per-layer and per-token times read in milliseconds (sweep.csv keeps seconds).
    report.in_ms = {"tpot_s", "attention_s_per_layer", "transfer_s_per_layer", "ffn_collectives_s_per_layer",
                    "ffn_s_per_layer"};
    // The expert groups' all-gather + reduce-scatter (afd.ffn.tp > 1) is communication too, so the
    // table shows it beside the transfer wherever a row has any; plain EP keeps its table.
    const bool grouped = std::any_of(table.rows.begin(), table.rows.end(), [&](const auto& row) {
      return table.number(row.first, "ffn_collectives_s_per_layer") > 0.0;
    });
    if (grouped) report.columns.emplace_back("ffn_collectives_s_per_layer");
    for (const char* c : {"ffn_s_per_layer", "ffn_utilization", "usd_per_1m_tokens", "meets_target"}) {
      report.columns.emplace_back(c);
    }
    const auto series = analyse_afd_sweep(table, manifest);
    report.findings = afd_findings_text(table, series);
    report.plot = afd_sweep_plot(table, manifest, series, swept_setup_loaded_by(manifest, load_afd_scenario),
                                 objective);
    return report;
  }
};

}  // namespace
RLSIM_REGISTER_SCENARIO_KIND(AfdKind, "afd", 2,
                             "one attention-FFN-disaggregated decode instance, layer by layer");
}  // namespace rlsim
