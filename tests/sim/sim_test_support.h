// Helpers for engine tests: SimGrid allows one engine per process, so each simulation runs in a
// forked child that sends its answer back through a pipe; scenarios are written from inline YAML.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>

#include "sim/scenario/scenario_loader.h"

namespace rlsim::test {

/// Runs `body` in a child process and returns what it returned; throws if the child failed.
inline std::string run_in_child(const std::function<std::string()>& body) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
  std::cout.flush();  // or the child would print the parent's buffered output again
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    std::string answer;
    int code = 0;
    try {
      answer = body();
    } catch (const std::exception& e) {
      answer = std::string("exception: ") + e.what();
      code = 1;
    }
    size_t written = 0;
    while (written < answer.size()) {
      const ssize_t n = ::write(fds[1], answer.data() + written, answer.size() - written);
      if (n <= 0) break;
      written += static_cast<size_t>(n);
    }
    ::close(fds[1]);
    std::_Exit(code);
  }
  ::close(fds[1]);
  std::string answer;
  char buffer[4096];
  ssize_t n = 0;
  while ((n = ::read(fds[0], buffer, sizeof buffer)) > 0) answer.append(buffer, static_cast<size_t>(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw std::runtime_error("child failed: " + answer);
  return answer;
}

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
