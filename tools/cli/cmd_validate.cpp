// `rlsim validate S.yaml`: load and check a scenario (schema, units, ranges, catalogs, topology,
// policy constraints) without simulating it.
#include <iostream>

#include "sim/engine/simulation.h"
#include "sim/platform/topology.h"
#include "tools/cli/afd_run.h"
#include "tools/cli/command.h"
#include "tools/cli/scenario_args.h"

namespace rlsim {
namespace {

class ValidateCommand : public Command {
 public:
  CLI::App* add_to(CLI::App& root) override {
    CLI::App* sub = root.add_subcommand("validate", "Check a scenario without running it");
    args_.add_to(sub);
    sub->footer(
        "Checks YAML syntax, unknown keys, types, units and ranges, GPU and model names, pool\n"
        "references and that every pool is reachable. Errors print as FILE:LINE:COL: error: ...\n"
        "and exit with code 2.\n\nExample:\n  rlsim validate scenarios/quickstart.yaml --set workload.steps=5");
    return sub;
  }
  int run() override {
    if (scenario_kind(args_.file, load_options(args_)) == ScenarioKind::afd) return validate_afd(args_);
    LoadedScenario loaded = args_.load();
    Topology topology(loaded.scenario.cluster);
    check_policy(loaded.scenario);
    int gpus = 0;
    for (const auto& pool : loaded.scenario.cluster.pools) gpus += pool.gpus();
    std::cout << args_.file << ": ok (" << loaded.scenario.name << ": " << gpus << " GPUs in "
              << loaded.scenario.cluster.pools.size() << " pools, model " << loaded.scenario.model.name << ", policy "
              << loaded.scenario.policy.name << ")\n";
    return kExitOk;
  }

 private:
  ScenarioArgs args_;
};

}  // namespace
RLSIM_REGISTER_COMMAND(ValidateCommand, "validate", 20);
}  // namespace rlsim
