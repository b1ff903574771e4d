// `rlsim run` and `rlsim compare` progress: each simulated step or compared policy with elapsed time and ETA
// on stderr when it is a terminal (here a pseudo-terminal from script(1)), nothing when it is not or with
// --quiet.
#include <catch2/catch.hpp>

#include "tests/cli/cli_support.h"

using namespace rlsim::test;
using Catch::Matchers::Contains;

namespace {
const std::string kSmallRun =
    "run scenarios/quickstart.yaml --set workload.steps=2 --set workload.prompts_per_step=4";

/// `rlsim <args>` with stdout and stderr on a pseudo-terminal; what it showed.
CliResult run_on_terminal(const std::string& args) {
  return run_shell("script -qec \"'" + std::string(RLSIM_TEST_BINARY) + "' " + args + "\" /dev/null");
}
}  // namespace

TEST_CASE("run shows each step with elapsed time and ETA on a terminal, and ends the line") {
  const auto out = scratch_dir("progress-terminal");
  const CliResult r = run_on_terminal(kSmallRun + " --out '" + out.string() + "'");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("[1/2] step 0: took ") && Contains("[2/2] step 1: took "));
  CHECK_THAT(r.out, Contains(", elapsed ") && Contains(", ETA "));
  // The summary starts on a line of its own, after the progress line.
  CHECK_THAT(r.out, Contains("\nrlsim: quickstart"));
}

TEST_CASE("run shows no progress with --quiet or when stderr is not a terminal") {
  const auto out = scratch_dir("progress-quiet");
  const CliResult quiet = run_on_terminal(kSmallRun + " --quiet --out '" + out.string() + "/a'");
  REQUIRE(quiet.exit_code == 0);
  CHECK_THAT(quiet.out, !Contains("ETA"));
  const CliResult piped = run_rlsim(kSmallRun + " --out '" + out.string() + "/b'");
  REQUIRE(piped.exit_code == 0);
  CHECK(piped.err.empty());
}

TEST_CASE("compare shows each policy with elapsed time and ETA on a terminal, and ends the line") {
  const auto out = scratch_dir("compare-progress-terminal");
  const CliResult r = run_on_terminal(
      "compare scenarios/quickstart.yaml --policies disaggregated,overlap --set workload.steps=2 --set "
      "workload.prompts_per_step=4 --out '" +
      out.string() + "'");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("[1/2] ") && Contains("[2/2] ") && Contains(", ETA "));
  // The table starts on a line of its own, after the progress line.
  CHECK_THAT(r.out, Contains("\nrlsim compare: quickstart"));
  const CliResult piped = run_rlsim(
      "compare scenarios/quickstart.yaml --policies disaggregated,overlap --set workload.steps=2 --set "
      "workload.prompts_per_step=4 --out '" +
      out.string() + "/piped'");
  REQUIRE(piped.exit_code == 0);
  CHECK(piped.err.empty());
}

TEST_CASE("sweep shows its check of every point with elapsed time and ETA on a terminal, nothing piped") {
  const auto out = scratch_dir("sweep-check-progress");
  const std::string sweep =
      "sweep scenarios/quickstart.yaml --param rollout.max_batch=8,16,32 --set workload.steps=1 --set "
      "workload.prompts_per_step=4 --out '";
  const CliResult r = run_on_terminal(sweep + out.string() + "/a'");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("[1/3] checked point 0: took ") && Contains("[3/3] checked point 2: took ") &&
                        Contains(", ETA "));
  const CliResult piped = run_rlsim(sweep + out.string() + "/b'");
  REQUIRE(piped.exit_code == 0);
  CHECK_THAT(piped.err, !Contains("checked point"));
}
