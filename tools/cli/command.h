// Command: one `rlsim` subcommand. Each lives in its own tools/cli/cmd_*.cpp and registers itself with
// RLSIM_REGISTER_COMMAND, so adding a command touches one new file. `run` returns the exit code;
// it may throw InputError (exit 2, message FILE:LINE:COL: error: ...) — main turns that into output.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rlsim {

class Command {
 public:
  virtual ~Command() = default;
  /// Adds this command's subcommand, options and help (with an example) to `root`.
  virtual CLI::App* add_to(CLI::App& root) = 0;
  /// Runs after parsing; returns the process exit code.
  virtual int run() = 0;
};

struct CommandEntry {
  std::string name;
  int order;  ///< position in `rlsim --help`
  std::function<std::unique_ptr<Command>()> make;
};

/// Registers a command factory; called from static initialisers.
bool register_command(CommandEntry entry);
/// All registered commands in help order.
std::vector<CommandEntry> registered_commands();

/// Exit codes shared by every command (docs/design.md §5).
constexpr int kExitOk = 0;
constexpr int kExitInternal = 1;
constexpr int kExitBadInput = 2;

}  // namespace rlsim

#define RLSIM_REGISTER_COMMAND(Type, name, order)                                                   \
  static const bool rlsim_command_registered_##Type = ::rlsim::register_command(                  \
      {name, order, []() -> std::unique_ptr<::rlsim::Command> { return std::make_unique<Type>(); }})
