// Helpers for engine tests: SimGrid allows one engine per process, so each simulation runs in a
// forked child (sim/process/child_pool.h, as the CLI's sweeps do) that sends back the figures the
// test checks, by name; scenarios are written from inline YAML.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "sim/scenario/scenario_loader.h"

namespace rlsim::test {

/// What a child process brings back: numbers, lists of numbers and words, each under a name, so
/// the parent reads each figure by the name the child wrote it under, never by its position.
/// Numbers travel with 17 significant digits: a double comes back exactly.
class Figures {
 public:
  void set(const std::string& name, double value);
  void set_text(const std::string& name, const std::string& value);
  void set_list(const std::string& name, const std::vector<double>& values);

  bool has(const std::string& name) const { return values_.count(name) == 1; }
  /// The figure `name`; throws naming it when the child did not write it.
  double at(const std::string& name) const;
  const std::string& text(const std::string& name) const;
  std::vector<double> list(const std::string& name) const;
  std::vector<std::string> names() const;

  /// One "name=value" line per figure, and back.
  std::string serialise() const;
  static Figures parse(const std::string& text);

 private:
  std::map<std::string, std::string> values_;
};

/// Runs `body` in a forked child and returns the figures it produced; throws with the child's
/// message when it failed (an InputError or any other exception) or died.
Figures figures_in_child(const std::function<Figures()>& body);

/// Writes `yaml` to a fresh file under the temp folder and returns its path.
inline std::string write_scenario(const std::string& name, const std::string& yaml) {
  const auto dir = std::filesystem::temp_directory_path() / ("rlsim-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = dir / (name + ".yaml");
  std::ofstream(path) << yaml;
  return path.string();
}

inline LoadedScenario load_inline(const std::string& name, const std::string& yaml,
                                  std::vector<std::string> overrides = {}) {
  LoadOptions options;
  options.overrides = std::move(overrides);
  options.data_dir = RLSIM_TEST_SOURCE_DIR;
  return load_scenario(write_scenario(name, yaml), options);
}

/// A small RL scenario on two 1-node pools (rollout H20, train H800), every default left to the
/// schema; 11 lines, so a test appending a section knows its line numbers (it starts at 12).
inline const char* const kTwoPools = R"(
model: qwen3-8b
cluster:
  pools:
    - {name: rollout, gpu: H20, nodes: 1}
    - {name: train, gpu: H800, nodes: 1}
  links:
    - {between: [rollout, train], bandwidth: 400Gbps}
    - {between: [agents, rollout], bandwidth: 100Gbps}
    - {between: [dataplane, rollout], bandwidth: 100Gbps}
workload: {prompts_per_step: 2}
)";

/// One pool of 8 H800 that trains and rolls out in turn (policy colocated), every other default left
/// to the schema.
inline const char* const kColocatedPool = R"(
model: phi-2
cluster:
  pools:
    - {name: gpu, gpu: H800, nodes: 1}
  links:
    - {between: [agents, gpu], bandwidth: 200Gbps}
    - {between: [dataplane, gpu], bandwidth: 200Gbps}
workload: {prompts_per_step: 8, samples_per_prompt: 3}
policy: {name: colocated}
)";

/// The InputError that loading `yaml` throws; std::logic_error when it loads.
inline InputError load_error(const std::string& yaml, std::vector<std::string> overrides = {}) {
  try {
    load_inline("bad", yaml, std::move(overrides));
  } catch (const InputError& e) {
    return e;
  }
  throw std::logic_error("expected an InputError");
}

}  // namespace rlsim::test
