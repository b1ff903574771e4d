// Shared scenario arguments.
#include "tools/cli/scenario_args.h"

#include <cstdint>
#include <string>

namespace rlsim {

void ScenarioArgs::add_to(CLI::App* app) {
  app->add_option("scenario", file, "Scenario YAML file")->required();
  app->add_option("--set", sets,
                  "Override a field: path.to.field=value (list items by index or name, e.g. "
                  "cluster.pools.rollout.nodes=4); repeatable");
  app->add_option("--unset", unsets,
                  "Remove a field the file sets, before the --set apply: its default holds, or a --set "
                  "may give one it excludes (e.g. --unset workload.concurrency --set workload.rate=2/s); "
                  "repeatable");
  // Checked as text before CLI11 converts it: a negative or oversized seed must not wrap or clamp.
  const CLI::Validator seed_range(
      [](std::string& text) -> std::string {
        const bool digits =
            !text.empty() && text.size() <= 19 && text.find_first_not_of("0123456789") == std::string::npos;
        if (!digits || std::stoull(text) > static_cast<unsigned long long>(INT64_MAX))
          return "expected a whole number from 0 to " + std::to_string(INT64_MAX) + ", found '" + text + "'";
        return "";
      },
      "UINT");
  app->add_option("--seed", seed, "Random seed (overrides the scenario's 'seed'; 0 to 2^63-1)")
      ->check(seed_range);
}

namespace {

/// `text` as one shell word: as it is when it holds only safe characters, else single-quoted.
std::string shell_word(const std::string& text) {
  const bool safe = !text.empty() && text.find_first_not_of(
                                         "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                         "0123456789._-/=:,+@") == std::string::npos;
  if (safe) return text;
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace

std::string scenario_arguments(const std::string& file, const std::vector<std::string>& unsets,
                               const std::vector<std::string>& sets) {
  std::string text = shell_word(file);
  for (const auto& path : unsets) text += " --unset " + shell_word(path);
  for (const auto& set : sets) text += " --set " + shell_word(set);
  return text;
}

LoadOptions ScenarioArgs::load_options() const {
  LoadOptions options;
  options.unsets = unsets;
  options.overrides = sets;
  options.seed = seed;
  return options;
}

void ForkedOutputArgs::add_to(CLI::App* app, const std::string& job) {
  app->add_option("--jobs", jobs, job + " simulated at once (one process each)")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  app->add_option("--out", out, "Output folder (created; files in it are replaced)")->capture_default_str();
  app->add_flag("--quiet,-q", quiet, "No progress on stderr (shown only on a terminal anyway)");
}

}  // namespace rlsim
