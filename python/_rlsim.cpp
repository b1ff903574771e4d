// The C++ side of the Python package `rlsim` (python/rlsim/): the rlsim command line, the same code
// the executable runs (tools/cli/cli_main.h), run in a forked child of the interpreter with its
// output captured. A child because SimGrid allows one engine per process, and so that a simulation
// leaves the interpreter as it found it.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "tools/cli/cli_main.h"

namespace py = pybind11;

namespace {

/// A temporary file for one of the child's streams.
struct CapturedStream {
  std::string path;
  int fd = -1;
  explicit CapturedStream(const char* which) {
    path = (std::filesystem::temp_directory_path() / ("rlsim-python-" + std::string(which) + "-XXXXXX"))
               .string();
    fd = ::mkstemp(path.data());
    if (fd < 0) throw std::runtime_error("rlsim: cannot create a temporary file in " + path);
  }
  std::string read_and_remove() {
    ::close(fd);
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    std::filesystem::remove(path);
    return text.str();
  }
};

/// `rlsim ARGS...` in a child: its exit code (the negative signal number when one killed it),
/// standard output and standard error.
std::tuple<int, std::string, std::string> cli(const std::vector<std::string>& args) {
  CapturedStream out("out"), err("err");
  std::fflush(nullptr);
  int status = 0;
  {
    py::gil_scoped_release unlocked;  // the child never calls into Python; the parent only waits
    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error("rlsim: cannot start a process (fork failed)");
    if (pid == 0) {
      ::dup2(out.fd, STDOUT_FILENO);
      ::dup2(err.fd, STDERR_FILENO);
      std::vector<std::string> words{"rlsim"};
      words.insert(words.end(), args.begin(), args.end());
      std::vector<char*> argv;
      for (std::string& word : words) argv.push_back(word.data());
      argv.push_back(nullptr);
      int code = 1;
      try {
        code = rlsim::run_cli(static_cast<int>(words.size()), argv.data());
      } catch (const std::exception& e) {
        std::cerr << "rlsim: internal error: " << e.what() << "\n";
      }
      std::cout.flush();
      std::cerr.flush();
      std::fflush(nullptr);
      ::_exit(code);
    }
    while (::waitpid(pid, &status, 0) < 0) {
      if (errno != EINTR) throw std::runtime_error("rlsim: lost its process (waitpid failed)");
    }
  }
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  std::string out_text = out.read_and_remove();
  std::string err_text = err.read_and_remove();
  return {code, std::move(out_text), std::move(err_text)};
}

}  // namespace

PYBIND11_MODULE(_rlsim, m) {
  m.doc() = "rlsim's command line, run in a child process (see the rlsim package)";
  m.def("cli", &cli, py::arg("args"),
        "Runs `rlsim ARGS...` in a child process; returns (exit code, stdout, stderr).");
}
