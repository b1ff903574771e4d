// resolved.yaml is a scenario: for every bundled scenario, running the resolved.yaml of a run
// gives byte-identical outputs (metrics, trace, and resolved.yaml itself).
#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/cli/cli_support.h"

namespace fs = std::filesystem;
using namespace rlsim::test;

TEST_CASE("every bundled scenario's resolved.yaml re-runs to the same bytes", "[cli][round-trip]") {
  std::vector<fs::path> scenarios;
  for (const auto& entry : fs::directory_iterator(fs::path(RLSIM_TEST_SOURCE_DIR) / "scenarios")) {
    if (entry.path().extension() == ".yaml") scenarios.push_back(entry.path());
  }
  std::sort(scenarios.begin(), scenarios.end());
  REQUIRE(scenarios.size() >= 10);
  for (const fs::path& scenario : scenarios) {
    INFO(scenario.filename().string());
    const fs::path dir = scratch_dir("round-trip-" + scenario.stem().string());
    const CliResult first = run_rlsim("run 'scenarios/" + scenario.filename().string() + "' --out '" +
                                      (dir / "a").string() + "'");
    REQUIRE(first.exit_code == 0);
    const CliResult again = run_rlsim("run '" + (dir / "a" / "resolved.yaml").string() + "' --out '" +
                                      (dir / "b").string() + "'");
    INFO(again.err);
    REQUIRE(again.exit_code == 0);
    for (const char* file : {"metrics.json", "trace.json", "resolved.yaml"}) {
      INFO(file);
      CHECK(slurp(dir / "a" / file) == slurp(dir / "b" / file));
    }
  }
}
