// `rlsim run S.yaml --out DIR`: simulate a scenario, print the summary and write metrics.json,
// trace.json and resolved.yaml into DIR (all or nothing).
#include <iostream>

#include "sim/engine/simulation.h"
#include "sim/platform/topology.h"
#include "tools/cli/afd_run.h"
#include "tools/cli/command.h"
#include "tools/report/output_dir.h"
#include "tools/report/run_report.h"
#include "tools/cli/scenario_args.h"

namespace rlsim {
namespace {

class RunCommand : public Command {
 public:
  CLI::App* add_to(CLI::App& root) override {
    CLI::App* sub = root.add_subcommand("run", "Simulate a scenario and write its metrics, trace and resolved scenario");
    args_.add_to(sub);
    sub->add_option("--out", out_, "Output folder (created; files in it are replaced)")->capture_default_str();
    sub->add_option("--log", logs_,
                    "SimGrid log setting passed through, e.g. --log root.thres:info (repeatable; default: silent)");
    sub->footer(
        "Writes DIR/metrics.json, DIR/trace.json (open in https://ui.perfetto.dev or chrome://tracing)\n"
        "and DIR/resolved.yaml (the scenario with every default filled in); with\n"
        "cluster.dataplane.ledger true also DIR/trajectories.jsonl, one line per LLM call. Nothing is\n"
        "written when the scenario is invalid (exit code 2).\n\nExamples:\n"
        "  rlsim run scenarios/quickstart.yaml --out out/quickstart\n"
        "  rlsim run scenarios/quickstart.yaml --out out/ledger --set cluster.dataplane.ledger=true\n"
        "  rlsim run scenarios/quickstart.yaml --out out/q2 --set workload.steps=10 --seed 7\n"
        "  rlsim run scenarios/afd-step3.yaml --out out/afd --set afd.batch=2048   (kind: afd)");
    return sub;
  }

  int run() override {
    if (scenario_kind(args_.file, load_options(args_)) == ScenarioKind::afd) return run_afd(args_, out_, logs_);
    LoadedScenario loaded = args_.load();
    const Scenario& scenario = loaded.scenario;
    Topology topology(scenario.cluster);  // reject unusable topologies before writing anything
    check_policy(scenario);
    StagedOutput output(out_);
    SimulationOptions options;
    for (const auto& log : logs_) options.simgrid_args.push_back("--log=" + log);
    SimulationResult result = simulate(scenario, options);
    output.write("metrics.json", metrics_json(scenario, result.metrics).dump(2) + "\n");
    output.write("trace.json", trace_json(scenario, result.timeline));
    output.write("resolved.yaml", loaded.resolved_yaml);
    const bool ledger = scenario.cluster.dataplane.ledger;
    if (ledger) output.write("trajectories.jsonl", ledger_jsonl(result.ledger));
    output.commit();
    std::cout << summary_table(scenario, result.metrics);
    std::cout << "outputs: " << out_ << "/{metrics.json,trace.json,resolved.yaml" << (ledger ? ",trajectories.jsonl" : "")
              << "}\n";
    return kExitOk;
  }

 private:
  ScenarioArgs args_;
  std::string out_ = "out";
  std::vector<std::string> logs_;
};

}  // namespace
RLSIM_REGISTER_COMMAND(RunCommand, "run", 10);
}  // namespace rlsim
