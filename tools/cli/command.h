// Command: one `rlsim` subcommand. Each lives in its own tools/cli/cmd_*.cpp and registers itself with
// RLSIM_REGISTER_COMMAND, so adding a command touches one new file. `run` returns the exit code;
// it may throw InputError (exit 2, message FILE:LINE:COL: error: ...) — main turns that into output.
#pragma once

#include <CLI/CLI.hpp>

#include "models/registry/registry.h"

namespace rlsim {

class Command {
 public:
  virtual ~Command() = default;
  /// Adds this command's subcommand, options and help (with an example) to `root`.
  virtual CLI::App* add_to(CLI::App& root) = 0;
  /// Runs after parsing; returns the process exit code.
  virtual int run() = 0;
};

/// Every command, in `rlsim --help` order (an entry's `order`). Commands take no parameters: their
/// options are CLI11's (Command::add_to).
using CommandRegistry = Registry<Command>;

/// Exit codes shared by every command (docs/design.md §5).
constexpr int kExitOk = 0;
constexpr int kExitInternal = 1;
constexpr int kExitBadInput = 2;

}  // namespace rlsim

/// RLSIM_REGISTER_COMMAND(Type, "name", order): `order` is its position in `rlsim --help`.
#define RLSIM_REGISTER_COMMAND(Type, name, order) \
  RLSIM_REGISTRY_ADD(::rlsim::CommandRegistry, Type, name, "", {}, order)
