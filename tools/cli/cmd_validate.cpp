// `rlsim validate S.yaml`: load and check a scenario (schema, units, ranges, catalogs, topology,
// policy constraints) without simulating it.
#include <iostream>

#include "tools/cli/command.h"
#include "tools/cli/scenario_args.h"
#include "tools/kinds/scenario_kind.h"

namespace rlsim {
namespace {

class ValidateCommand : public Command {
 public:
  CLI::App* add_to(CLI::App& root) override {
    CLI::App* sub = root.add_subcommand("validate", "Check a scenario without running it");
    args_.add_to(sub);
    sub->footer(
        "Checks YAML syntax, unknown keys, types, units and ranges, GPU and model names, pool\n"
        "references, that every pool is reachable and that the model, its KV cache and the training\n"
        "layout fit the GPUs' memory (printed per pool). Errors print as FILE:LINE:COL: error: ...\n"
        "and exit with code 2.\n\nExample:\n  rlsim validate scenarios/quickstart.yaml --set "
        "workload.steps=5");
    return sub;
  }
  int run() override {
    const LoadOptions options = args_.load_options();
    const std::unique_ptr<CheckedScenario> scenario =
        scenario_kind_of(args_.file, options)->load(args_.file, options);
    std::cout << args_.file << ": ok (" << scenario->description() << ")\n" << scenario->memory_report();
    return kExitOk;
  }

 private:
  ScenarioArgs args_;
};

}  // namespace
RLSIM_REGISTER_COMMAND(ValidateCommand, "validate", 20);
}  // namespace rlsim
