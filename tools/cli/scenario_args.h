// The arguments every scenario-taking command shares: the file, `--set a.b=v` overrides and
// `--seed`, and loading them into a checked scenario.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

#include "sim/scenario/scenario_loader.h"

namespace rlsim {

struct ScenarioArgs {
  std::string file;
  std::vector<std::string> sets;
  std::optional<uint64_t> seed;

  void add_to(CLI::App* app);
  LoadedScenario load() const;
};

}  // namespace rlsim
