// `rlsim run S.yaml --out DIR`: simulate a scenario, print the summary (with the validated cases
// nearest to it and, for RL scenarios, the remedies that measured better: tools/advice/) and write
// metrics.json, trace.json, resolved.yaml and report.html into DIR (all or nothing).
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>

#include "sim/engine/simulation.h"
#include "sim/process/child_pool.h"
#include "tools/advice/measured_advice.h"
#include "tools/cli/catalog_args.h"
#include "tools/cli/command.h"
#include "tools/cli/scenario_args.h"
#include "tools/cli/simgrid_log_arg.h"
#include "tools/kinds/scenario_kind.h"
#include "tools/report/output_dir.h"
#include "tools/report/profile_comparison.h"
#include "tools/report/progress.h"
#include "tools/report/run_report.h"
#include "tools/validation/validation_record.h"

namespace rlsim {
namespace {

class RunCommand : public Command {
 public:
  CLI::App* add_to(CLI::App& root) override {
    CLI::App* sub =
        root.add_subcommand("run", "Simulate a scenario and write its metrics, trace and resolved scenario");
    args_.add_to(sub);
    sub->add_option("--out", out_, "Output folder (created; files in it are replaced)")
        ->capture_default_str();
    sub->add_option(
           "--log", logs_,
           "SimGrid log setting passed through, e.g. --log root.thres:info (repeatable; default: silent)")
        ->check(simgrid_log_setting());
    sub->add_flag("--quiet,-q", quiet_, "No progress on stderr (shown only on a terminal anyway)");
    sub->add_flag("--trace-gpus", trace_.gpu_tracks,
                  "trace.json with one track per GPU (default: one per instance, its TP group's identical "
                  "GPU tracks shown once)");
    sub->add_flag("--trace-requests", trace_.requests,
                  "trace.json also shows every LLM call as a slice (queue, prefill, decode) on its "
                  "instance, with arrows between a trajectory's turns (RL and serve runs)");
    sub->add_flag("--no-advice", no_advice_,
                  "Skip the advice by simulation (RL scenarios): print the rule-of-thumb advice instead");
    sub->add_option(
           "--advice-trials", advice_trials_,
           "Changes the advice simulates at most (policies, pool rebalance, staleness, max_batch, agent "
           "cores; a count, so the advice is the same on any machine)")
        ->capture_default_str()
        ->check(CLI::Range(0, 1000));
    sub->add_option("--advice-jobs", advice_jobs_, "Advice trials simulated at once (one process each)")
        ->capture_default_str()
        ->check(CLI::Range(1, 256));
    sub->add_flag("--compare-profile", compare_profile_,
                  "Also run the scenario priced by the datasheet roofline alone and print what its profile "
                  "changed, per phase (RL scenarios with a profile:)");
    sub->footer(
        "Writes DIR/metrics.json, DIR/trace.json (open in https://ui.perfetto.dev or chrome://tracing),\n"
        "DIR/resolved.yaml (the scenario with every default filled in) and DIR/report.html (one\n"
        "self-contained page: summary, timeline per pool, bubble, utilisation, TTFT/TPOT, advice); with\n"
        "cluster.dataplane.ledger true also DIR/trajectories.jsonl, one line per LLM call. Nothing is\n"
        "written when the scenario is invalid (exit code 2). On a terminal, stderr shows each simulated\n"
        "step with the elapsed time and an ETA.\n\n"
        "Advice by simulation (RL scenarios): before the run, each change a remedy proposes (another\n"
        "policy, a node moved between the rollout and training pools, one more staleness version, twice\n"
        "max_batch, twice the agent cores) is simulated in its own process; the summary advises only the\n"
        "changes whose steady step time beat the run's beyond both 95 % intervals, best first, each with\n"
        "the command that reproduces it, and metrics.json (advice.measured) keeps every trial. --no-advice\n"
        "skips it (the environment variable RLSIM_NO_ADVICE=1 does too, for scripts and test suites).\n\n"
        "Examples:\n"
        "  rlsim run scenarios/quickstart.yaml --out out/quickstart\n"
        "  rlsim run scenarios/quickstart.yaml --out out/ledger --set cluster.dataplane.ledger=true\n"
        "  rlsim run scenarios/quickstart.yaml --out out/q2 --set workload.steps=10 --seed 7\n"
        "  rlsim run scenarios/agentic.yaml --out out/agentic --trace-requests   (every call in the trace)\n"
        "  rlsim run scenarios/afd-step3.yaml --out out/afd --set afd.batch=2048   (kind: afd)\n"
        "  rlsim run scenarios/serve-llama3-70b.yaml --out out/poisson --unset workload.concurrency \\\n"
        "      --set workload.rate=1/s   (kind: serve; Poisson arrivals for the file's closed loop)");
    return sub;
  }

  int run() override {
    const LoadOptions options = args_.load_options();
    const std::unique_ptr<ScenarioKind> kind = scenario_kind_of(args_.file, options);
    const std::unique_ptr<CheckedScenario> scenario = kind->load(args_.file, options);
    if (trace_.requests && !kind->has_requests())
      throw InputError(
          flag_location("--trace-requests"),
          "a run of kind " + kind->name() + " has no LLM requests to trace; drop --trace-requests");
    StagedOutput output(out_);
    // What a run of any kind writes at the top of its folder (tools/kinds/*).
    output.refuse_replacing(scenario->input_files(), {"metrics.json", "trace.json", "resolved.yaml",
                                                      "report.html", "requests.csv", "trajectories.jsonl"});
    // Before this process creates its engine: the datasheet-only run in a child (one engine each).
    const nlohmann::json datasheet = compare_profile_ ? datasheet_metrics(*kind, options) : nlohmann::json();
    // Also before this process's engine: the advice's trials, each in a child.
    const char* no_advice_env = std::getenv("RLSIM_NO_ADVICE");
    const bool advise =
        kind->name() == "rl" && !no_advice_ && !(no_advice_env && std::string(no_advice_env) == "1");
    std::optional<MeasuredAdvice> advice;
    if (advise)
      advice = try_remedies(args_.file, options, load_scenario(args_.file, options).scenario, advice_jobs_,
                            advice_trials_);
    SimulationOptions simulation;
    for (const auto& log : logs_) simulation.simgrid_args.push_back("--log=" + log);
    // Progress per simulated step (RL runs), as compare and sweep show it per job.
    auto progress = std::make_optional<Progress>(0, !quiet_);
    auto last_step = std::chrono::steady_clock::now();
    simulation.on_step = [&progress, &last_step](int done, int total) {
      if (done > total) return;  // a step redone after a fault is not a step more
      const auto now = std::chrono::steady_clock::now();
      progress->set_total(total);
      progress->finished("step " + std::to_string(done - 1),
                         std::chrono::duration<double>(now - last_step).count());
      last_step = now;
    };
    const std::unique_ptr<FinishedRun> run = scenario->simulate(simulation);
    progress.reset();  // ends the progress line before the summary
    OutputOptions written;
    written.trace = trace_;
    const nlohmann::json own_metrics = run->metrics();
    written.summary_note =
        validated_near_from_record(scenario->resolved_yaml(), args_.as_arguments(), &own_metrics);
    std::string summary = run->summary();
    if (advice) {
      const nlohmann::json own = run->metrics();
      written.measured_advice = measured_advice_json(*advice, own);
      written.measured_advice_text = measured_advice_text(*advice, own, args_.as_arguments());
      summary = with_measured_advice(summary, written.measured_advice_text);
    }
    run->write_outputs(output, written);
    output.commit();
    std::string files;
    for (const auto& file : output.files()) files += (files.empty() ? "" : ",") + file;
    std::cout << summary << written.summary_note << "outputs: " << out_ << "/{" << files << "}\n";
    if (compare_profile_) {
      const nlohmann::json with_profile = nlohmann::json::parse(std::ifstream(out_ + "/metrics.json"));
      std::cout << profile_comparison_text(with_profile, datasheet);
    }
    return kExitOk;
  }

 private:
  /// The scenario's metrics.json priced by the datasheet roofline alone (its profile dropped),
  /// simulated in a child process; InputError unless it is an RL scenario with a profile.
  nlohmann::json datasheet_metrics(const ScenarioKind& kind, const LoadOptions& options) const {
    if (kind.name() != "rl")
      throw InputError(flag_location("--compare-profile"),
                       "--compare-profile compares RL runs; this is kind " + kind.name());
    if (load_scenario(args_.file, options).scenario.profile.empty())
      throw InputError(flag_location("--compare-profile"),
                       "the scenario has no profile: to compare one, give profile: (or --set profile=FILE)");
    std::string metrics;
    const ChildOutcome failure = run_in_children(
        {0}, 1,
        [&](long) {
          LoadedScenario loaded = load_scenario(args_.file, options);
          loaded.scenario.cost_model = PluginSpec{"roofline"};
          loaded.scenario.profile.clear();
          return metrics_json(loaded.scenario, simulate(loaded.scenario).metrics).dump();
        },
        [&](const ChildOutcome& outcome) { metrics = outcome.text; });
    if (!failure.ok) throw std::runtime_error("the datasheet-only run failed: " + failure.text);
    return nlohmann::json::parse(metrics);
  }

  ScenarioArgs args_;
  std::string out_ = "out";
  std::vector<std::string> logs_;
  bool quiet_ = false;
  bool compare_profile_ = false;
  bool no_advice_ = false;
  int advice_trials_ = 12;
  int advice_jobs_ = 2;
  TraceOptions trace_;
};

}  // namespace
RLSIM_REGISTER_COMMAND(RunCommand, "run", 10);
}  // namespace rlsim
