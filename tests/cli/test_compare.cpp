// `rlsim compare` end to end: one row per policy in compare.csv with the documented columns, an
// SVG chart, a table with advice, skipped policies with their reason, bad input rejected.
#include <catch2/catch.hpp>
#include <sstream>

#include "sim/platform/gpu_state.h"
#include "tests/cli/cli_support.h"

using namespace rlsim::test;

namespace {

std::vector<std::string> csv_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_CASE("compare runs each policy on the same workload and writes csv, svg and per-policy runs") {
  const auto out = scratch_dir("compare") / "out";
  CliResult r = run_rlsim(
      "compare scenarios/quickstart.yaml --policies disaggregated,overlap,labels --jobs 2 --set "
      "workload.steps=2 --out '" +
      out.string() + "'");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out,
             Catch::Contains("disaggregated") && Catch::Contains("labels") && Catch::Contains("advice"));
  const auto lines = csv_lines(slurp(out / "compare.csv"));
  REQUIRE(lines.size() == 4);
  CHECK(lines[0] ==
        "policy,step_time_s,samples_per_s,bubble_fraction,train_waits_rollout,rollout_waits_weights,"
        "rollout_waits_agents,long_tail,usd_per_step,usd_per_1m_tokens,recommendation");
  CHECK(lines[1].rfind("disaggregated,", 0) == 0);
  CHECK(lines[2].rfind("overlap,", 0) == 0);
  CHECK(lines[3].rfind("labels,", 0) == 0);
  const std::string svg = slurp(out / "compare.svg");
  CHECK(svg.rfind("<svg", 0) == 0);
  const std::string rollout = rlsim::to_string(rlsim::GpuState::busy(rlsim::Phase::rollout));
  CHECK_THAT(svg, Catch::Contains(rollout) && Catch::Contains("labels") && Catch::Contains("</svg>"));
  CHECK(std::filesystem::exists(out / "labels" / "metrics.json"));
  // The same policy's row matches a plain run of it.
  const auto single = scratch_dir("compare-single") / "out";
  REQUIRE(run_rlsim("run scenarios/quickstart.yaml --set policy.name=overlap --set workload.steps=2 --out '" +
                    single.string() + "'")
              .exit_code == 0);
  CHECK(slurp(single / "metrics.json") == slurp(out / "overlap" / "metrics.json"));
}

TEST_CASE("compare lists a policy that cannot run the cluster as skipped, with the reason") {
  const auto out = scratch_dir("compare-skip") / "out";
  // quickstart rolls out on H20 and trains on H800: colocated needs one card for both.
  CliResult r = run_rlsim(
      "compare scenarios/quickstart.yaml --policies colocated,disaggregated --set workload.steps=1 --out '" +
      out.string() + "'");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("colocated") && Catch::Contains("skipped"));
  CHECK(csv_lines(slurp(out / "compare.csv")).size() == 2);
}

TEST_CASE("compare rejects unknown policies and bad scenarios without writing anything") {
  const auto out = scratch_dir("compare-bad") / "out";
  CliResult unknown = run_rlsim(
      "compare scenarios/quickstart.yaml --policies disaggregated,nonsense --out '" + out.string() + "'");
  CHECK(unknown.exit_code == 2);
  CHECK_THAT(unknown.err, Catch::Contains("nonsense"));
  CliResult missing = run_rlsim("compare scenarios/does-not-exist.yaml --out '" + out.string() + "'");
  CHECK(missing.exit_code == 2);
  CHECK_FALSE(std::filesystem::exists(out));
}
