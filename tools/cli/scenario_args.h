// The arguments every scenario-taking command shares: the file, `--unset a.b` removals, `--set a.b=v`
// overrides and `--seed`, and the load options they make (tools/kinds/scenario_kind.h loads the file).
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/scenario/scenario_loader.h"

namespace rlsim {

/// `file`, `--unset` removals `unsets` and `--set` overrides `sets` as a shell command line takes
/// them (quoted where needed), for the commands a run suggests next.
std::string scenario_arguments(const std::string& file, const std::vector<std::string>& unsets,
                               const std::vector<std::string>& sets);

struct ScenarioArgs {
  std::string file;
  std::vector<std::string> unsets;
  std::vector<std::string> sets;
  std::optional<uint64_t> seed;

  void add_to(CLI::App* app);
  /// The `--unset` removals, `--set` overrides and `--seed` as the loaders take them.
  LoadOptions load_options() const;
  /// The file and its removals and overrides: scenario_arguments(file, unsets, sets).
  std::string as_arguments() const { return scenario_arguments(file, unsets, sets); }
};

/// The flags of a command that simulates in child processes into an output folder (compare, plan,
/// forecast): --jobs (`job` says what one is, "Policies"), --out and --quiet.
struct ForkedOutputArgs {
  /// `jobs` and `out` are the defaults: one process, or more; the command's folder under out/.
  ForkedOutputArgs(int default_jobs, std::string default_out)
      : jobs(default_jobs), out(std::move(default_out)) {}
  int jobs;
  std::string out;
  bool quiet = false;

  void add_to(CLI::App* app, const std::string& job);
};

}  // namespace rlsim
