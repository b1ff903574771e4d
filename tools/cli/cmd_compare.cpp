// `rlsim compare S.yaml --policies a,b,… [--out DIR]`: the same scenario, workload and seed under
// several policies, one forked process each (SimGrid allows one engine per process). Every policy
// runs on the scenario's cluster as it is: `colocated` pools both pools when they hold the same
// card, `labels` tags the training pool {train, rollout} unless the scenario has a `labels:`
// section; a policy that cannot run the scenario is listed as skipped with its reason. Prints a
// table and writes DIR/compare.csv, DIR/compare.svg and each policy's run outputs in DIR/<policy>/.
#include <algorithm>
#include <iostream>
#include <sstream>

#include "sim/engine/simulation.h"
#include "sim/platform/topology.h"
#include "sim/process/child_pool.h"
#include "tools/cli/command.h"
#include "tools/cli/scenario_args.h"
#include "tools/report/compare_report.h"
#include "tools/report/output_dir.h"
#include "tools/report/run_report.h"

namespace rlsim {
namespace {

std::vector<std::string> split_names(const std::string& list) {
  std::vector<std::string> names;
  std::stringstream in(list);
  std::string name;
  while (std::getline(in, name, ',')) {
    if (!name.empty()) names.push_back(name);
  }
  return names;
}

class CompareCommand : public Command {
 public:
  CLI::App* add_to(CLI::App& root) override {
    CLI::App* sub =
        root.add_subcommand("compare", "Run one scenario under several policies and compare them");
    args_.add_to(sub);
    sub->add_option("--policies", policies_, "Comma-separated policies to compare")->capture_default_str();
    sub->add_option("--out", out_, "Output folder (created; files in it are replaced)")
        ->capture_default_str();
    sub->add_option("--jobs", jobs_, "Policies simulated at once (one process each)")
        ->capture_default_str()
        ->check(CLI::Range(1, 64));
    sub->footer(
        "Same workload and seed under each policy. colocated pools both pools when they hold the same\n"
        "card; labels tags the training pool {train, rollout} unless the scenario has 'labels:'. A\n"
        "policy that cannot run the scenario is listed as skipped, with the reason.\n"
        "Writes DIR/compare.csv (one row per policy), DIR/compare.svg (GPU time per step by state)\n"
        "and DIR/<policy>/{metrics.json,trace.json,resolved.yaml}.\n\nExamples:\n"
        "  rlsim compare scenarios/label-scheduling.yaml --out out/labels\n"
        "  rlsim compare scenarios/faults.yaml --policies colocated,disaggregated --out out/faults");
    return sub;
  }

  int run() override {
    const std::vector<std::string> policies = split_names(policies_);
    for (size_t i = 0; i < policies.size(); ++i) {
      if (std::find(policies.begin(), policies.begin() + static_cast<std::ptrdiff_t>(i), policies[i]) !=
          policies.begin() + static_cast<std::ptrdiff_t>(i))
        throw InputError({"--policies", 0, 0}, "policy '" + policies[i] + "' is listed twice");
    }
    if (policies.empty()) throw InputError({"--policies", 0, 0}, "no policy named in --policies");
    // Check everything before simulating anything: bad input writes nothing.
    std::vector<ComparedPolicy> rows;
    std::vector<LoadOptions> options;
    std::string scenario_name, preference;
    for (const auto& policy : policies) {
      LoadOptions o;
      o.overrides = args_.sets;
      o.policy = policy;
      o.seed = args_.seed;
      LoadedScenario loaded = load_scenario(args_.file, o);
      Topology topology(loaded.scenario.cluster);
      scenario_name = loaded.scenario.name;
      preference = card_preference_note(loaded.scenario);
      ComparedPolicy row{policy, nullptr, ""};
      try {
        check_policy(loaded.scenario);
      } catch (const InputError& e) {
        row.skipped = e.message();
      }
      rows.push_back(row);
      options.push_back(o);
    }

    std::vector<long> jobs;
    for (size_t i = 0; i < rows.size(); ++i) {
      if (rows[i].skipped.empty()) jobs.push_back(static_cast<long>(i));
    }
    const std::filesystem::path out(out_);
    StagedOutput output(out);  // checks --out before anything is simulated
    const ChildOutcome failure = run_in_children(
        jobs, jobs_,
        [&](long job) {
          const auto i = static_cast<size_t>(job);
          LoadedScenario loaded = load_scenario(args_.file, options[i]);
          SimulationResult result = simulate(loaded.scenario);
          const nlohmann::json metrics = metrics_json(loaded.scenario, result.metrics);
          const std::string folder = rows[i].policy + "/";
          output.write(folder + "metrics.json", metrics.dump(2) + "\n");
          output.write(folder + "trace.json", trace_json(loaded.scenario, result.timeline));
          output.write(folder + "resolved.yaml", loaded.resolved_yaml);
          return metrics.dump();
        },
        [&](const ChildOutcome& outcome) {
          if (outcome.ok)
            rows[static_cast<size_t>(outcome.job)].metrics = nlohmann::json::parse(outcome.text);
        });
    if (!failure.ok) {
      if (failure.input_error) throw InputError::relayed(failure.text);
      throw std::runtime_error("policy '" + rows[static_cast<size_t>(failure.job)].policy +
                               "' failed: " + failure.text);
    }

    output.write("compare.csv", compare_csv(rows));
    output.write("compare.svg", compare_svg(scenario_name, rows));
    output.commit();
    std::cout << compare_table(scenario_name, rows) << preference;
    std::cout << "outputs: " << out_ << "/{compare.csv,compare.svg,<policy>/metrics.json}\n";
    return kExitOk;
  }

 private:
  ScenarioArgs args_;
  std::string policies_ = "colocated,disaggregated,overlap,streaming,labels";
  std::string out_ = "out/compare";
  int jobs_ = 1;
};

}  // namespace
RLSIM_REGISTER_COMMAND(CompareCommand, "compare", 25);
}  // namespace rlsim
