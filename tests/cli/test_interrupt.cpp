// A run, comparison or other forking command stopped by a signal (SIGTERM from a scheduler, Ctrl-C's SIGINT,
// SIGHUP) dies of that signal and leaves nothing beside its --out: no staging folder, no output folder; one
// killed outright leaves no child process running on.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "tests/cli/cli_support.h"

namespace fs = std::filesystem;
using namespace rlsim::test;

namespace {

/// What sits in `folder`: names, hidden ones included.
std::vector<std::string> entries_of(const fs::path& folder) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder)) names.push_back(entry.path().filename().string());
  return names;
}

/// Starts `rlsim <args>` in its own process group; returns its pid.
pid_t start_rlsim(const std::string& args) {
  const std::string command = std::string("cd '") + RLSIM_TEST_SOURCE_DIR + "' && exec '" +
                              RLSIM_TEST_BINARY + "' " + args + " >/dev/null 2>&1";
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    std::_Exit(127);
  }
  ::setpgid(pid, pid);
  return pid;
}

/// Waits until `folder` holds an entry (the run's staging folder), then a little longer, so the
/// signal arrives while the simulation runs.
void wait_for_staging(const fs::path& folder) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (std::chrono::steady_clock::now() < deadline && entries_of(folder).empty())
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
}

// 5,000 turns per trajectory: minutes of simulation, always running when the signal comes.
constexpr const char* kLongRun = "scenarios/quickstart.yaml --set workload.steps=4 --set workload.turns=5000";

}  // namespace

TEST_CASE("a run stopped by SIGTERM, SIGINT or SIGHUP dies of it and leaves no staging folder") {
  for (const int signal_number : {SIGTERM, SIGINT, SIGHUP}) {
    const fs::path parent = scratch_dir("interrupted-" + std::to_string(signal_number));
    const pid_t pid =
        start_rlsim(std::string("run ") + kLongRun + " --out '" + (parent / "out").string() + "'");
    REQUIRE(pid > 0);
    wait_for_staging(parent);
    REQUIRE(!entries_of(parent).empty());
    ::kill(pid, signal_number);
    int status = 0;
    ::waitpid(pid, &status, 0);
    INFO("signal " << signal_number);
    REQUIRE(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == signal_number);
    CHECK(entries_of(parent).empty());
  }
}

TEST_CASE("a comparison stopped by SIGTERM to its process group leaves no staging folder") {
  const fs::path parent = scratch_dir("interrupted-compare");
  const pid_t pid =
      start_rlsim(std::string("compare ") + kLongRun +
                  " --policies colocated,disaggregated --jobs 2 --out '" + (parent / "out").string() + "'");
  REQUIRE(pid > 0);
  wait_for_staging(parent);
  ::kill(-pid, SIGTERM);  // the comparison and its children, as a batch scheduler stops a job
  int status = 0;
  ::waitpid(pid, &status, 0);
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGTERM);
  CHECK(entries_of(parent).empty());
}

namespace {

/// The pids of the processes whose parent is `parent` (from /proc).
std::vector<pid_t> children_of(pid_t parent) {
  std::vector<pid_t> children;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    // pid (comm) state ppid ...: the fields after the last ')'.
    std::istringstream rest(line.substr(line.rfind(')') + 1));
    std::string state;
    pid_t ppid = 0;
    rest >> state >> ppid;
    if (ppid == parent) children.push_back(static_cast<pid_t>(std::stol(name)));
  }
  return children;
}

bool alive(pid_t pid) { return ::kill(pid, 0) == 0 && fs::exists("/proc/" + std::to_string(pid) + "/stat"); }

/// How many of `children` still run 10 s after their parent ended; kills those, so that a failing
/// check leaves nothing behind.
size_t children_left_running(const std::vector<pid_t>& children) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  auto running = [&] {
    size_t n = 0;
    for (pid_t child : children) n += alive(child) ? 1 : 0;
    return n;
  };
  while (running() > 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const size_t left = running();
  for (pid_t child : children) ::kill(child, SIGKILL);
  return left;
}

}  // namespace

TEST_CASE("a comparison killed outright (kill -9, only its own process) leaves no child running") {
  const fs::path parent = scratch_dir("killed-compare");
  // 20,000 steps: minutes for each policy's child, which outlives the test unless it ends with its parent.
  const pid_t pid = start_rlsim(
      "compare scenarios/quickstart.yaml --set workload.steps=20000 --policies colocated,disaggregated "
      "--jobs 2 "
      "--quiet --out '" +
      (parent / "out").string() + "'");
  REQUIRE(pid > 0);
  wait_for_staging(parent);
  const std::vector<pid_t> children = children_of(pid);
  REQUIRE(!children.empty());  // its policies, each simulating in a child
  ::kill(pid, SIGKILL);        // the parent alone: nothing signals the children
  int status = 0;
  ::waitpid(pid, &status, 0);
  CHECK(children_left_running(children) == 0);
}

namespace {

/// Waits until `pid` has child processes (its simulations started); returns them.
std::vector<pid_t> wait_for_children(pid_t pid) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  std::vector<pid_t> children;
  while (children.empty() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    children = children_of(pid);
  }
  return children;
}

}  // namespace

TEST_CASE("every forking command killed outright leaves no child running, and stopped by SIGTERM leaves none",
          "[long]") {
  // Each simulates for minutes in its children unless they end with their parent.
  const std::vector<std::pair<const char*, std::string>> commands = {
      {"sweep", "sweep scenarios/quickstart.yaml --set workload.steps=20000 --param rollout.max_batch=32,64"},
      {"plan",
       "plan scenarios/quickstart.yaml --set workload.steps=20000 --gpus H100:16 --policies colocated "
       "--rollout-tp 2 --train-tp 2,4"},
      {"validation", "validation --near scenarios/quickstart.yaml --set workload.steps=20000"},
      {"forecast", "forecast " + std::string(kLongRun) + " --samples 2"},
  };
  for (const auto& [name, args] : commands) {
    for (const int signal_number : {SIGKILL, SIGTERM}) {
      const fs::path parent = scratch_dir("killed-forking");
      const pid_t pid = start_rlsim(args + " --jobs 2 --quiet --out '" + (parent / "out").string() + "'");
      REQUIRE(pid > 0);
      const std::vector<pid_t> children = wait_for_children(pid);
      INFO(name << ", signal " << signal_number);
      REQUIRE(!children.empty());
      ::kill(pid, signal_number);  // the parent alone: its children must end with it
      int status = 0;
      ::waitpid(pid, &status, 0);
      CHECK(children_left_running(children) == 0);
      if (signal_number == SIGTERM) {
        // Stopped cleanly: no staging folder beside --out (a sweep keeps its folder to resume).
        for (const std::string& left : entries_of(parent)) CHECK(left.find(".partial-") == std::string::npos);
      }
    }
  }
}
