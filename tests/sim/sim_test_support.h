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

}  // namespace rlsim::test
