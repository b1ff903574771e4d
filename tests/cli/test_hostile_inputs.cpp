// The hostile-input suite: every command of tests/hostile/cases.txt gives its exit code and phrase,
// ends in time and not by a signal, never calls an input problem an internal error, and leaves no
// output folder behind when it fails (the cases' format is described at the top of the file).
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>

#include "tests/cli/cli_support.h"

namespace fs = std::filesystem;
using namespace rlsim::test;

namespace {

struct HostileCase {
  int line = 0;
  int exit_code = 0;
  std::string phrase;
  std::string args;
};

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(' '), last = s.find_last_not_of(' ');
  return first == std::string::npos ? "" : s.substr(first, last - first + 1);
}

std::vector<HostileCase> read_cases(const fs::path& file) {
  std::vector<HostileCase> cases;
  std::ifstream in(file);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.empty() || line.front() == '#') continue;
    const auto bar1 = line.find(" | "), bar2 = line.find(" | ", bar1 + 3);
    if (bar1 == std::string::npos || bar2 == std::string::npos)
      FAIL("cases.txt:" << number << ": expected EXIT | PHRASE | ARGS");
    HostileCase c{number, std::stoi(line.substr(0, bar1)), trim(line.substr(bar1 + 3, bar2 - bar1 - 3)),
                  trim(line.substr(bar2 + 3))};
    if (c.phrase.empty() || c.args.empty()) FAIL("cases.txt:" << number << ": empty phrase or arguments");
    cases.push_back(c);
  }
  return cases;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

/// Inputs too large or too deep to commit, written once per test run.
fs::path generated_inputs() {
  const fs::path dir = scratch_dir("hostile-generated");
  {
    std::ofstream huge(dir / "huge.yaml");
    huge << "name: huge\n";
  }
  fs::resize_file(dir / "huge.yaml", (std::uintmax_t{256} << 20) + 1);  // sparse: no disk used
  std::ofstream(dir / "deep.json") << std::string(100000, '[') << std::string(100000, ']');
  std::ofstream(dir / "deep.yaml") << "model: " << std::string(10000, '[') << std::string(10000, ']') << "\n";
  return dir;
}

}  // namespace

TEST_CASE("every hostile input gets its exit code and message, and nothing worse", "[cli][hostile]") {
  const fs::path source(RLSIM_TEST_SOURCE_DIR);
  const std::vector<HostileCase> cases = read_cases(source / "tests" / "hostile" / "cases.txt");
  REQUIRE(cases.size() >= 150);
  const fs::path gen = generated_inputs();
  for (const HostileCase& c : cases) {
    const fs::path tmp = scratch_dir("hostile-case");
    std::ofstream(tmp / "file") << "x";
    fs::create_directories(tmp / "dir");
    std::string args = replace_all(c.args, "{tmp}", tmp.string());
    args = replace_all(args, "{gen}", gen.string());
    args = replace_all(args, "{files}", "tests/hostile/files");
    args = replace_all(args, "{quick}", "scenarios/quickstart.yaml");
    args = replace_all(args, "{afd}", "scenarios/afd-step3.yaml");
    // bash, for $'…' quoting; `timeout` turns a hang into exit 124.
    std::ofstream(tmp / "command.sh")
        << "cd '" << source.string() << "' && exec timeout 60 '" << RLSIM_TEST_BINARY << "' " << args << " >'"
        << (tmp / "stdout").string() << "' 2>'" << (tmp / "stderr").string() << "' </dev/null\n";
    const int status = std::system(("bash '" + (tmp / "command.sh").string() + "'").c_str());
    const std::string out = slurp(tmp / "stdout"), err = slurp(tmp / "stderr");
    INFO("cases.txt:" << c.line << ": rlsim " << c.args << "\nstderr: " << err.substr(0, 600));
    REQUIRE(WIFEXITED(status));
    const int code = WEXITSTATUS(status);
    CHECK(code != 124);  // hung
    CHECK(code == c.exit_code);
    CHECK_THAT(c.exit_code == 0 ? out : err, Catch::Contains(c.phrase));
    if (c.exit_code == 2) CHECK_THAT(err, !Catch::Contains("internal error"));
    if (code != 0) CHECK_FALSE(fs::exists(tmp / "out"));
    // No staging folder left beside the output either.
    for (const auto& entry : fs::directory_iterator(tmp))
      CHECK(entry.path().filename().string().find(".partial-") == std::string::npos);
  }
}
