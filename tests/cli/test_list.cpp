// `rlsim list policies|routers|cost-models`: every registered entry with its description and the
// table of its parameters (type, range, unit, default, help); the command order of `rlsim --help`.
#include <catch2/catch.hpp>
#include <sstream>
#include <vector>

#include "tests/cli/cli_support.h"

using namespace rlsim::test;
using Catch::Matchers::Contains;

namespace {
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

/// The first line of `lines` that starts with `prefix` after its indentation, or "".
std::string line_starting(const std::vector<std::string>& lines, const std::string& prefix) {
  for (const auto& line : lines) {
    if (line.find_first_not_of(' ') != std::string::npos &&
        line.substr(line.find_first_not_of(' ')).rfind(prefix, 0) == 0) {
      return line;
    }
  }
  return "";
}
}  // namespace

TEST_CASE("list policies shows each policy's parameters with type, range, unit and default") {
  const CliResult r = run_rlsim("list policies");
  REQUIRE(r.exit_code == 0);
  const auto lines = lines_of(r.out);
  CHECK_THAT(line_starting(lines, "overlap"), Contains("rollout of step k+1"));
  const std::string staleness = line_starting(lines, "max_staleness");
  CHECK_THAT(staleness,
             Contains("integer") && Contains("0 to 1000") && Contains(" 1 ") && Contains("weight versions"));
  const std::string swap = line_starting(lines, "weight_swap");
  CHECK_THAT(swap, Contains("duration") && Contains(">= 0") && Contains(" s ") && Contains("0s"));
  // The header names the columns, and every table lines up with it.
  const std::string header = line_starting(lines, "parameter");
  CHECK_THAT(header, Contains("type") && Contains("range") && Contains("unit") && Contains("default") &&
                         Contains("help"));
  CHECK(staleness.find("integer") == header.find("type"));
  CHECK(swap.find("0s") == header.find("default"));
  // Policies without parameters list no table.
  const auto disaggregated = std::find(lines.begin(), lines.end(), line_starting(lines, "disaggregated"));
  REQUIRE(disaggregated + 1 != lines.end());
  CHECK((disaggregated + 1)->rfind("labels", 0) == 0);
}

TEST_CASE("list routers and list cost-models show every registered entry") {
  const CliResult routers = run_rlsim("list routers");
  REQUIRE(routers.exit_code == 0);
  CHECK_THAT(routers.out, Contains("least_loaded") && Contains("prefix_aware") && Contains("round_robin"));
  const CliResult costs = run_rlsim("list cost-models");
  REQUIRE(costs.exit_code == 0);
  const auto lines = lines_of(costs.out);
  CHECK_THAT(line_starting(lines, "profile"), Contains("calibrated"));
  CHECK_THAT(line_starting(lines, "gemm_compute"), Contains("0.01 to 1") && Contains("0.75"));
  CHECK_THAT(line_starting(lines, "launch_overhead"), Contains("duration") && Contains("4us"));
}

TEST_CASE("rlsim --help lists the commands in their registered order") {
  const CliResult r = run_rlsim("--help");
  REQUIRE(r.exit_code == 0);
  std::vector<size_t> at;
  for (const char* name : {"  run", "  validate", "  compare", "  sweep", "  roofline", "  cost", "  review",
                           "  calibrate", "  list"}) {
    at.push_back(r.out.find(name));
    CHECK(at.back() != std::string::npos);
  }
  CHECK(std::is_sorted(at.begin(), at.end()));
}
