// `rlsim run S.yaml --out DIR`: simulate a scenario, print the summary and write metrics.json,
// trace.json, resolved.yaml and report.html into DIR (all or nothing).
#include <iostream>

#include "tools/cli/command.h"
#include "tools/cli/scenario_args.h"
#include "tools/cli/simgrid_log_arg.h"
#include "tools/kinds/scenario_kind.h"
#include "tools/report/output_dir.h"

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
    sub->footer(
        "Writes DIR/metrics.json, DIR/trace.json (open in https://ui.perfetto.dev or chrome://tracing),\n"
        "DIR/resolved.yaml (the scenario with every default filled in) and DIR/report.html (one\n"
        "self-contained page: summary, timeline per pool, bubble, utilisation, TTFT/TPOT, advice); with\n"
        "cluster.dataplane.ledger true also DIR/trajectories.jsonl, one line per LLM call. Nothing is\n"
        "written when the scenario is invalid (exit code 2).\n\nExamples:\n"
        "  rlsim run scenarios/quickstart.yaml --out out/quickstart\n"
        "  rlsim run scenarios/quickstart.yaml --out out/ledger --set cluster.dataplane.ledger=true\n"
        "  rlsim run scenarios/quickstart.yaml --out out/q2 --set workload.steps=10 --seed 7\n"
        "  rlsim run scenarios/afd-step3.yaml --out out/afd --set afd.batch=2048   (kind: afd)");
    return sub;
  }

  int run() override {
    const LoadOptions options = args_.load_options();
    const std::unique_ptr<ScenarioKind> kind = scenario_kind_of(args_.file, options);
    const std::unique_ptr<CheckedScenario> scenario = kind->load(args_.file, options);
    StagedOutput output(out_);
    SimulationOptions simulation;
    for (const auto& log : logs_) simulation.simgrid_args.push_back("--log=" + log);
    const std::unique_ptr<FinishedRun> run = scenario->simulate(simulation);
    run->write_outputs(output);
    output.commit();
    std::string files;
    for (const auto& file : output.files()) files += (files.empty() ? "" : ",") + file;
    std::cout << run->summary() << "outputs: " << out_ << "/{" << files << "}\n";
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
