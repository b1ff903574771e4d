// Every command that writes files, run where its writes fail: under a file-size limit (a full
// disk's short write: RLIMIT_FSIZE with SIGXFSZ ignored, so a write past it fails with EFBIG where a
// full disk gives ENOSPC) it exits 1 naming the file it could not write, claims no outputs and
// leaves no partial file; into a folder it cannot write in, it exits 2 before simulating.
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <vector>

#include "tests/cli/cli_support.h"

namespace fs = std::filesystem;
using namespace rlsim::test;

namespace {

struct WritingCommand {
  const char* name;
  std::string args;  ///< "{out}" stands for the output path (a folder, or a file for calibrate/import)
  const char* out;   ///< the output's name under the test's folder
};

/// One small run of every command that writes files.
std::vector<WritingCommand> writing_commands() {
  return {
      {"run (RL)", "run scenarios/quickstart.yaml --set workload.steps=2 --out {out}", "out"},
      {"run (serve)",
       "run scenarios/serve-llama3-70b.yaml --set workload.requests=40 --set workload.warmup=4 --out {out}",
       "out"},
      {"run (AFD)", "run scenarios/afd-step3.yaml --out {out}", "out"},
      {"compare",
       "compare scenarios/quickstart.yaml --set workload.steps=2 --policies colocated,disaggregated --out "
       "{out}",
       "out"},
      {"forecast", "forecast scenarios/quickstart.yaml --steps 20 --samples 2 --out {out}", "out"},
      {"plan",
       "plan scenarios/quickstart.yaml --set workload.steps=2 --gpus H100:16 --policies colocated "
       "--rollout-tp 2 --train-tp 2 --out {out}",
       "out"},
      {"sweep",
       "sweep scenarios/quickstart.yaml --set workload.steps=2 --param rollout.max_batch=32,64 --out {out}",
       "out"},
      {"validation", "validation --only step3-afd-h800 --out {out}", "out"},
      {"calibrate",
       "calibrate --format rlsim --hardware H100 --input tests/data/kernels/h100_synthetic_quick.json --out "
       "{out}",
       "profile.yaml"},
      {"import", "import verl examples/verl-qwen2-7b-gsm8k/launch.yaml --gpu H100 --out {out}",
       "scenario.yaml"},
  };
}

std::string with_out(std::string args, const fs::path& out) {
  const std::string quoted = "'" + out.string() + "'";
  return args.replace(args.find("{out}"), 5, quoted);
}

/// What sits in `folder` and below: paths relative to it.
std::vector<std::string> tree_of(const fs::path& folder) {
  std::vector<std::string> names;
  for (const auto& entry : fs::recursive_directory_iterator(folder))
    names.push_back(fs::relative(entry.path(), folder).string());
  return names;
}

/// Runs `rlsim <args>` with files limited to 512 bytes (dash's ulimit -f counts 512-byte blocks).
/// stdout and stderr reach the test through a pipe, which the limit does not touch; the exit code
/// comes back as the last line.
CliResult run_with_file_limit(const std::string& args) {
  // The outer braces take run_shell's redirections (stdin from /dev/null), so cat reads the pipe.
  const CliResult shell =
      run_shell("{ { (trap '' XFSZ; ulimit -f 1; exec '" + std::string(RLSIM_TEST_BINARY) + "' " + args +
                ") 2>&1; echo \"exit $?\"; } | cat; }");
  CliResult r;
  const size_t last = shell.out.rfind("exit ");
  REQUIRE(last != std::string::npos);
  r.exit_code = std::stoi(shell.out.substr(last + 5));
  r.out = shell.out.substr(0, last);
  return r;
}

}  // namespace

TEST_CASE("a write that fails (a full disk) is exit 1 naming the file, with no outputs claimed or left") {
  for (const WritingCommand& command : writing_commands()) {
    const fs::path dir = scratch_dir("file-limit");
    const CliResult r = run_with_file_limit(with_out(command.args, dir / command.out));
    INFO(command.name << ":\n" << r.out);
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.out, Catch::Contains("rlsim: error: ") && Catch::Contains("cannot write '") &&
                          Catch::Contains("File too large") && !Catch::Contains("internal error"));
    // What each command prints once its files are in place: none of it.
    CHECK_THAT(r.out, !Catch::Contains("outputs:") && !Catch::Contains(") written to") &&
                          !Catch::Contains("scenario written to"));
    // No partial file anywhere; a sweep keeps the points it finished (it resumes from them).
    for (const std::string& left : tree_of(dir)) {
      INFO(left);
      CHECK(left.find("partial") == std::string::npos);
      if (std::string(command.name) != "sweep") CHECK(left != command.out);
    }
  }
}

namespace {

/// `dir` made a folder rlsim cannot write in: a read-only tmpfs mounted there when running as root
/// (root writes through permissions), else its permissions; false when neither can be done.
bool make_read_only(const fs::path& dir) {
  if (::geteuid() != 0) return ::chmod(dir.c_str(), 0555) == 0;
  return ::mount("tmpfs", dir.c_str(), "tmpfs", MS_RDONLY, "size=64k") == 0;
}

void undo_read_only(const fs::path& dir) {
  if (::geteuid() == 0)
    ::umount(dir.c_str());
  else
    ::chmod(dir.c_str(), 0755);
}

}  // namespace

TEST_CASE("an output folder rlsim cannot write in is refused before simulating, exit 2") {
  const fs::path dir = scratch_dir("read-only");
  if (!make_read_only(dir)) {
    WARN("skipped: no read-only folder can be made here (not root, or no mount permission)");
    return;
  }
  for (const WritingCommand& command : writing_commands()) {
    // Exit 2 is an input error: refused while preparing (a write failing after simulating is exit 1).
    const CliResult r = run_rlsim(with_out(command.args, dir / "sub" / command.out));
    INFO(command.name << ":\n" << r.out << r.err);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("--out") && Catch::Contains(dir.string()));
    CHECK_THAT(r.out, !Catch::Contains("outputs:"));
  }
  undo_read_only(dir);
}

TEST_CASE("no command replaces its own scenario lying in --out under a name it writes") {
  // Each command, its scenario copied into its --out under one of the names it writes there.
  const std::vector<std::pair<std::string, std::string>> commands = {
      {"report.html", "sweep {scenario} --set workload.steps=2 --param rollout.max_batch=32,64 --out {out}"},
      {"overlap/resolved.yaml",
       "compare {scenario} --set workload.steps=2 --policies disaggregated,overlap --out {out}"},
      {"forecast.svg", "forecast {scenario} --steps 20 --samples 2 --out {out}"},
      {"plan.yaml",
       "plan {scenario} --set workload.steps=2 --gpus H100:16 --policies colocated --rollout-tp 2 "
       "--train-tp 2 --out {out}"},
      {"metrics.json", "run {scenario} --set workload.steps=2 --out {out}"},
  };
  for (const auto& [name, args] : commands) {
    const fs::path out = scratch_dir("own-scenario") / "out";
    const fs::path scenario = out / name;
    fs::create_directories(scenario.parent_path());
    fs::copy_file(fs::path(RLSIM_TEST_SOURCE_DIR) / "scenarios" / "quickstart.yaml", scenario);
    const std::string before = slurp(scenario);
    std::string line = args;
    line.replace(line.find("{scenario}"), 10, "'" + scenario.string() + "'");
    const CliResult r = run_rlsim(with_out(line, out));
    INFO(line << "\n" << r.out << r.err);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("is an input of this run"));
    CHECK(slurp(scenario) == before);
  }
}
