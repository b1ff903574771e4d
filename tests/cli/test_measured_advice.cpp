// Advice by simulation: `rlsim run` simulates each remedy's change, advises only those that beat
// the run's steady step time beyond both intervals, and the command it prints for the first one
// reproduces the step time it printed; metrics.json keeps every trial; --no-advice skips them.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <regex>

#include "tests/cli/cli_support.h"

using namespace rlsim::test;
using Catch::Matchers::Contains;
using nlohmann::json;

namespace {

/// `rlsim run ARGS` with the advice on (the test suite turns it off by default).
CliResult run_advised(const std::string& args) {
  return run_shell(std::string("RLSIM_NO_ADVICE= '") + RLSIM_TEST_BINARY + "' run " + args);
}

}  // namespace

TEST_CASE("the first measured remedy, run as printed, gives the step time it printed") {
  const auto dir = scratch_dir("measured-advice");
  const std::string base = "scenarios/quickstart.yaml --set workload.steps=6";
  const CliResult r = run_advised(base + " --out '" + (dir / "a").string() + "'");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("advice, measured:"));
  CHECK_THAT(r.out, !Contains("\nadvice: "));  // the rule of thumb is replaced
  // report.html too: its Advice section is the measured one, not the rule of thumb's pick.
  const std::string page = slurp(dir / "a" / "report.html");
  CHECK_THAT(page, Contains("Advice, measured") && !Contains("<b>label_scheduling</b>"));
  const json m = json::parse(slurp(dir / "a" / "metrics.json"));
  const json& trials = m["advice"]["measured"]["trials"];
  REQUIRE(trials.size() >= 3);
  // Every trial advised measured better than the run; none measured worse is advised.
  const double own = m["step_time_s"]["steady_mean"].get<double>();
  for (const json& t : trials) {
    if (t["ran"].get<bool>() && t["helped"].get<bool>()) CHECK(t["steady_step_s"].get<double>() < own);
  }
  // The first advised line: "  1. CHANGE: steady step X s (...)" then "     rlsim run ... --set ...".
  const std::regex first(R"(  1\. [^\n]*: steady step ([0-9.]+) s[^\n]*\n     rlsim run ([^\n]*)\n)");
  std::smatch found;
  REQUIRE(std::regex_search(r.out, found, first));
  const double printed = std::stod(found[1].str());
  CHECK(printed < own);
  const CliResult again = run_shell(std::string("'") + RLSIM_TEST_BINARY + "' run " + found[2].str() +
                                    " --no-advice --out '" + (dir / "b").string() + "'");
  REQUIRE(again.exit_code == 0);
  const json applied = json::parse(slurp(dir / "b" / "metrics.json"));
  CHECK(applied["step_time_s"]["steady_mean"].get<double>() == Approx(printed).epsilon(0.01));

  // Same scenario, same advice, to the byte.
  const CliResult twice = run_advised(base + " --out '" + (dir / "c").string() + "'");
  REQUIRE(twice.exit_code == 0);
  CHECK(slurp(dir / "c" / "metrics.json") == slurp(dir / "a" / "metrics.json"));
}

TEST_CASE("a run with --no-advice keeps the rule of thumb and simulates nothing more") {
  const auto dir = scratch_dir("no-advice");
  const CliResult r = run_advised("scenarios/quickstart.yaml --set workload.steps=2 --no-advice --out '" +
                                  (dir / "a").string() + "'");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("\nadvice: ") && !Contains("advice, measured"));
  CHECK_FALSE(json::parse(slurp(dir / "a" / "metrics.json"))["advice"].contains("measured"));
}
