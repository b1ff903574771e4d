// The rlsim command line as a function: builds the subcommands that registered themselves, parses,
// runs the chosen one, and maps errors to exit codes (0 ok, 2 bad input, 1 a failed write or an internal
// error). The executable's main and the Python package (python/) call it.
#include "tools/cli/cli_main.h"

#include <filesystem>
#include <iostream>

#include "build_info.h"
#include "models/input_error.h"
#include "tools/cli/command.h"
#include "tools/report/output_dir.h"

namespace rlsim {

int run_cli(int argc, char** argv) {
  CLI::App app{"rlsim " RLSIM_VERSION
               " - discrete-event simulator of GPU clusters running RL post-training of LLMs.\n"
               "Runs what-if scenarios from YAML on SimGrid: rollout, agents, training and weight sync on\n"
               "heterogeneous GPU pools, with bubbles by cause and advice on which remedy comes first.\n\n"
               "Start with:  rlsim run scenarios/quickstart.yaml --out out/quickstart\n"
               "Each command has its own help:  rlsim run --help",
               "rlsim"};
  app.set_version_flag("--version", "rlsim " RLSIM_VERSION);
  app.require_subcommand(1);
  app.fallthrough(false);

  std::vector<std::pair<std::unique_ptr<Command>, CLI::App*>> commands;
  for (const auto& entry : CommandRegistry::instance().entries()) {
    auto command = entry.make({});
    CLI::App* sub = command->add_to(app);
    commands.emplace_back(std::move(command), sub);
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitBadInput;
  }

  try {
    for (auto& [command, sub] : commands) {
      if (sub->parsed()) return command->run();
    }
  } catch (const InputError& e) {
    std::cerr << e.what() << "\n";
    return kExitBadInput;
  } catch (const OutputError& e) {
    std::cerr << "rlsim: error: " << e.what() << "\n";
    return kExitInternal;
  } catch (const std::filesystem::filesystem_error& e) {
    std::cerr << "rlsim: error: " << e.what() << "\n";  // the operation and the paths it names
    return kExitInternal;
  } catch (const std::exception& e) {
    std::cerr << "rlsim: internal error: " << e.what() << "\n";
    return kExitInternal;
  }
  return kExitInternal;
}

}  // namespace rlsim
