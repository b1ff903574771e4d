// The malformed-scenario corpus (tests/malformed/*.yaml): each file gives exit code 2, a
// FILE:LINE:COL: error: message containing the phrase its `# expect:` line names (or, for a file
// that cannot hold one, its entry in the table below), no crash, and no output folder (not even a
// partial one).
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <regex>

#include "tests/cli/cli_support.h"

using namespace rlsim::test;
namespace fs = std::filesystem;

namespace {

// Files that cannot carry an `# expect:` line (no text, or no bytes at all) and what their
// error says.
const std::map<std::string, std::string> kExpectedWithoutHeader{
    {"binary-junk.yaml", "expected a YAML text file, found binary data"},
    {"empty-zero-bytes.yaml", "expected a mapping of scenario fields, found an empty document"},
};

// The phrase the error for `file` must contain: its `# expect:` line or its table entry, exactly
// one of them, never empty (Contains("") would pass whatever the error said).
std::string expectation(const fs::path& file) {
  const std::string text = slurp(file);
  const std::string marker = "# expect: ";
  const bool has_header = text.rfind(marker, 0) == 0;
  auto listed = kExpectedWithoutHeader.find(file.filename().string());
  if (has_header == (listed != kExpectedWithoutHeader.end())) {
    FAIL(file.filename().string()
         << " needs exactly one expectation: an `# expect: ` first line or an entry in "
            "kExpectedWithoutHeader");
  }
  const std::string phrase =
      has_header ? text.substr(marker.size(), text.find('\n') - marker.size()) : listed->second;
  REQUIRE_FALSE(phrase.empty());
  return phrase;
}
}  // namespace

TEST_CASE("every malformed scenario is rejected with a located message and no output") {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(fs::path(RLSIM_TEST_SOURCE_DIR) / "tests" / "malformed")) {
    files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 25);
  for (const auto& [name, phrase] : kExpectedWithoutHeader) {
    INFO(name << " is listed in kExpectedWithoutHeader");
    CHECK(std::count(files.begin(), files.end(), files.front().parent_path() / name) == 1);
  }
  for (const auto& file : files) {
    const std::string relative = "tests/malformed/" + file.filename().string();
    INFO(relative);
    const auto out = scratch_dir("malformed") / "out";
    fs::remove_all(out);
    CliResult r = run_rlsim("run '" + relative + "' --out '" + out.string() + "'");
    CHECK(r.exit_code == 2);
    INFO(r.err);
    CHECK(std::regex_search(r.err, std::regex("^" + std::regex_replace(relative, std::regex("[.]"), "[.]") +
                                              ":[0-9]+:[0-9]+: error: ")));
    CHECK_THAT(r.err, Catch::Contains(expectation(file)));
    CHECK_FALSE(fs::exists(out));
    for (const auto& left : fs::directory_iterator(out.parent_path())) {
      CHECK(left.path().filename().string().find("partial") == std::string::npos);
    }
    CliResult v = run_rlsim("validate '" + relative + "'");
    CHECK(v.exit_code == 2);
  }
}
