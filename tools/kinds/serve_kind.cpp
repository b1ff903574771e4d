// The serving scenario kind (`kind: serve`): a stream of requests against one inference deployment,
// simulated by sim/engine/serving on the RL engine's own instances, schedulers and router. A run
// writes metrics.json (its `serving` object), requests.csv, trace.json, resolved.yaml and report.html;
// a sweep records TTFT/TPOT percentiles, throughput, goodput, the lock-step share and cost per point
// (sweep.svg: serve_sweep_plot.h) and says under its table which points ran in lock-step. A workload with
// prompts longer than the deployment's batching accepts is refused before it runs.
#include <algorithm>
#include <cmath>

#include "models/input_error.h"
#include "models/units.h"
#include "sim/engine/scheduling/replica_scheduler.h"
#include "sim/engine/serving/serve_simulation.h"
#include "sim/platform/topology.h"
#include "sim/scenario/memory_check.h"
#include "sim/scenario/profile_loader.h"
#include "sim/scenario/serve_reader.h"
#include "tools/kinds/rl_sweep_plot.h"
#include "tools/kinds/scenario_kind.h"
#include "tools/kinds/serve_sweep_findings.h"
#include "tools/kinds/serve_sweep_plot.h"
#include "tools/kinds/sweep_setup_notes.h"
#include "tools/report/pricing_text.h"
#include "tools/report/serve_report.h"
#include "tools/report/serve_report_html.h"

namespace rlsim {
namespace {

/// A deployment whose batching refuses prompts over a length cannot serve a workload with longer
/// ones: inflight_batching keeps prompts whole, as TensorRT-LLM does with context chunking off, and
/// TensorRT-LLM then refuses a request whose prompt is over max_num_tokens ("The sum of prompt
/// length ... should not exceed max_num_tokens", NVIDIA/TensorRT-LLM issue #9277). Checked when
/// the workload bounds its prompts (a trace, or a distribution with a largest value).
void check_prompts_accepted(const LoadedServeScenario& loaded) {
  const Scenario& s = loaded.scenario.deployment;
  const ServeWorkloadSpec& w = loaded.scenario.workload;
  const PluginSpec& scheduler = s.rollout.scheduler;
  const std::optional<double> longest =
      make_replica_scheduler(scheduler.name, scheduler.params,
                             SchedulerLimits{s.rollout.max_batch, 0.0, false})
          ->longest_prompt_tokens();
  if (!longest) return;
  double largest = w.prompt_tokens.largest();
  std::string what = "workload.prompt_tokens at its largest";
  if (w.arrivals == ArrivalMode::trace) {
    largest = 0.0;
    for (const TracedRequest& r : w.trace) largest = std::max(largest, r.prompt_tokens);
    what = "the request trace's longest prompt";
  }
  if (largest <= *longest) return;
  const std::string needed = format_number(std::ceil(largest));
  throw InputError(
      scheduler.params.has("token_budget") ? scheduler.params.where("token_budget") : scheduler.where,
      "serve.scheduler " + scheduler.name +
          " keeps prompts whole, as TensorRT-LLM does with context chunking " +
          "off, and TensorRT-LLM refuses a prompt longer than its max_num_tokens: " + what + " is " +
          format_number(largest) + " tokens, over the token budget of " + format_number(*longest) +
          "; smallest fix: serve.scheduler: {name: " + scheduler.name + ", token_budget: " + needed +
          "}, or scheduler: chunked_prefill (TensorRT-LLM's enable_chunked_prefill)");
}

/// A request's mean prompt and output tokens together: the trace's rows, else the distributions'.
double mean_request_tokens(const ServeWorkloadSpec& w) {
  if (w.arrivals != ArrivalMode::trace)
    return w.prompt_tokens.nominal_mean() + w.output_tokens.nominal_mean();
  double tokens = 0.0;
  for (const TracedRequest& r : w.trace) tokens += r.prompt_tokens + r.output_tokens;
  return tokens / static_cast<double>(w.trace.size());
}

class FinishedServeRun : public FinishedRun {
 public:
  FinishedServeRun(std::shared_ptr<const LoadedServeScenario> loaded, ServeResult result)
      : loaded_(std::move(loaded)), result_(std::move(result)) {}

  void write_outputs(StagedOutput& output, const OutputOptions& options) const override {
    output.write("metrics.json", metrics().dump(2) + "\n");
    output.write("requests.csv", serve_requests_csv(result_));
    output.write_streamed("trace.json", [&](std::ostream& out) {
      write_serve_trace_json(out, loaded_->scenario, result_, options.trace);
    });
    output.write("resolved.yaml", loaded_->resolved_yaml);
    output.write("report.html", serve_report_html(loaded_->scenario, result_,
                                                  summary() + options.summary_note, loaded_->resolved_yaml));
  }
  std::string summary() const override { return serve_summary(loaded_->scenario, result_); }
  nlohmann::json metrics() const override { return serve_metrics_json(loaded_->scenario, result_); }
  std::vector<std::string> sweep_row() const override {
    return serve_sweep_values(loaded_->scenario, result_);
  }

 private:
  std::shared_ptr<const LoadedServeScenario> loaded_;
  ServeResult result_;
};

class CheckedServeScenario : public CheckedScenario {
 public:
  explicit CheckedServeScenario(LoadedServeScenario loaded)
      : loaded_(std::make_shared<const LoadedServeScenario>(std::move(loaded))) {
    Topology topology(
        loaded_->scenario.deployment.cluster);  // reject unusable topologies before anything runs
  }

  const std::string& resolved_yaml() const override { return loaded_->resolved_yaml; }
  std::vector<std::string> input_files() const override {
    const ServeScenario& s = loaded_->scenario;
    return {s.deployment.file, s.workload.trace_path, s.deployment.profile};
  }
  std::string memory_report() const override {
    const Scenario& s = loaded_->scenario.deployment;
    return inference_memory_summary(s, mean_request_tokens(loaded_->scenario.workload), "serve") +
           pricing_basis_line(s, s.profile.empty() ? "" : load_profile(s.profile).card);
  }
  std::string description() const override {
    const Scenario& s = loaded_->scenario.deployment;
    const PoolSpec& pool = *s.cluster.pool(s.rollout.pool);
    return s.name + ": serve, model " + s.model.name + " on " + std::to_string(pool.gpus()) + " " +
           pool.card.name + " GPUs of " + s.rollout.pool + " (" + s.rollout.parallelism() + "), " +
           std::to_string(loaded_->scenario.workload.requests) + " requests";
  }
  std::unique_ptr<FinishedRun> simulate(const SimulationOptions& options) const override {
    return std::make_unique<FinishedServeRun>(loaded_, simulate_serve(loaded_->scenario, options));
  }

 private:
  std::shared_ptr<const LoadedServeScenario> loaded_;  // shared with the runs it simulates
};

/// The sweep's plot, its SLO and title from the base scenario (the table still plots, without
/// them, when the scenario no longer loads).
std::optional<LinePlot> serve_plot(const SweepTable& table, const SweepManifest& manifest,
                                   const SweepObjective& objective) {
  LoadOptions options;
  options.unsets = manifest.unsets;
  options.overrides = manifest.sets;
  options.check_memory = false;  // the base values of swept fields need not fit
  std::optional<LoadedServeScenario> loaded;
  try {
    loaded = load_serve_scenario(manifest.scenario, options);
  } catch (const std::exception&) {
    return serve_sweep_plot(table, manifest, nullptr, manifest.scenario, objective);
  }
  const Scenario& d = loaded->scenario.deployment;
  const SweptSetup setup = swept_setup_of(d.model.name, d.cluster);
  return serve_sweep_plot(table, manifest, &loaded->scenario.workload, setup.model + ", " + setup.cards,
                          objective);
}

class ServeKind : public ScenarioKind {
 public:
  using ScenarioKind::ScenarioKind;

  std::unique_ptr<CheckedScenario> load(const std::string& file, const LoadOptions& options) const override {
    LoadedServeScenario loaded = load_serve_scenario(file, options);
    check_prompts_accepted(loaded);
    return std::make_unique<CheckedServeScenario>(std::move(loaded));
  }
  const std::vector<std::string>& sweep_columns() const override { return serve_sweep_columns(); }
  std::string default_sweep_objective() const override { return "output_tokens_per_s"; }
  SweepKindReport sweep_report(const SweepTable& table, const SweepManifest& manifest,
                               const SweepObjective& objective) const override {
    SweepKindReport report;
    for (const auto& axis : manifest.axes) report.columns.push_back(axis.path);
    for (const char* c : {"ttft_p50_s", "ttft_p99_s", "tpot_p50_s", "tpot_p99_s"}) {
      report.columns.emplace_back(c);
      report.in_ms.insert(c);
    }
    for (const char* c : {"requests_per_s", "output_tokens_per_s", "goodput_fraction"})
      report.columns.emplace_back(c);
    report.plot = serve_plot(table, manifest, objective);
    report.findings = serve_sweep_findings(table, manifest) +
                      sweep_setup_notes(table, manifest, "serve", [&](const LoadOptions& options) {
                        return load_serve_scenario(manifest.scenario, options).scenario.deployment;
                      });
    return report;
  }
};

}  // namespace
RLSIM_REGISTER_SCENARIO_KIND(ServeKind, "serve", 3, "a stream of requests against one inference deployment");
}  // namespace rlsim
