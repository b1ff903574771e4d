// Running the built `rlsim` binary from tests: exit code, stdout and stderr of one invocation.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace rlsim::test {

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

/// A fresh, empty folder under the temp directory, unique to this process and `name`.
inline std::filesystem::path scratch_dir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("rlsim-cli-" + std::to_string(::getpid())) / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

/// Runs a shell command line (already quoted) from the source tree.
inline CliResult run_shell(const std::string& command_line) {
  const auto dir = scratch_dir("io");
  const auto out = dir / "stdout", err = dir / "stderr";
  const std::string command = std::string("cd '") + RLSIM_TEST_SOURCE_DIR + "' && " + command_line + " >'" +
                              out.string() + "' 2>'" + err.string() + "' </dev/null";
  const int status = std::system(command.c_str());
  CliResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = slurp(out);
  result.err = slurp(err);
  return result;
}

/// Runs `rlsim <args>` (args already shell-quoted) from the source tree.
inline CliResult run_rlsim(const std::string& args) {
  return run_shell(std::string("'") + RLSIM_TEST_BINARY + "' " + args);
}

}  // namespace rlsim::test
