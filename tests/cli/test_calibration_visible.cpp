// Calibration made visible: the summary and metrics.json name the cost model and, per op class, what
// answered the ops it priced (a profile's measured table, interpolation or fit, or the datasheet);
// fp8 weights on a card without fp8 tensor cores are said to be weight-only (RL, AFD); an AFD run
// names its precisions;
// `run --compare-profile` shows the per-phase times with and without the profile.
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_support.h"
#include "tests/scenario_fixtures.h"

using namespace rlsim::test;
using Catch::Matchers::Contains;
using nlohmann::json;

namespace {
const std::string kProfiled =
    std::string(kProfiledH100) + "workload: {steps: 2, prompts_per_step: 4, output_tokens: 256}\n";

std::string write_profiled(const std::string& name) {
  const auto dir = scratch_dir(name);
  std::ofstream(dir / "profiled.yaml") << kProfiled;
  return (dir / "profiled.yaml").string();
}

long answered(const json& ops_priced, const std::string& op_class, const std::string& answer) {
  return ops_priced.contains(op_class) && ops_priced[op_class].contains(answer)
             ? ops_priced[op_class][answer].get<long>()
             : 0;
}
/// The quickstart scenario cut to two steps of four prompts, with `extra` arguments, into `out`.
CliResult run_short_quickstart(const std::filesystem::path& out, const std::string& extra = "") {
  return run_rlsim("run scenarios/quickstart.yaml --set workload.steps=2 --set workload.prompts_per_step=4 " +
                   extra + " --out '" + out.string() + "'");
}
}  // namespace

TEST_CASE("without a profile every op is priced by the datasheet, and the summary says so") {
  const auto out = scratch_dir("pricing-roofline");
  const CliResult r = run_short_quickstart(out);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("cost model") && Contains("roofline; ops priced: ") && !Contains("weight-only"));
  const json pricing = json::parse(slurp(out / "metrics.json"))["pricing"];
  CHECK(pricing["cost_model"] == "roofline");
  REQUIRE(pricing["ops_priced"].contains("gemm"));
  for (const auto& [op_class, answers] : pricing["ops_priced"].items()) {
    INFO(op_class);
    CHECK(answers.size() == 1);
    CHECK(answers["datasheet"].get<long>() > 0);
  }
}

TEST_CASE("fp8 rollout weights on a card without an fp8 peak are said to be multiplied at bf16") {
  const CliResult r = run_short_quickstart(scratch_dir("pricing-weight-only"),
                                           "--set cluster.pools.rollout.gpu=A100 --set rollout.weights=fp8");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("fp8 weights on A100, which has no fp8 peak: stored as fp8, multiplied at its "
                             "bf16 peak (weight-only"));
}

TEST_CASE("a profile answers for its own card's GEMMs and the datasheet for the other card's") {
  const auto out = scratch_dir("pricing-profile");
  const CliResult r =
      run_rlsim("run '" + write_profiled("pricing-profile-in") + "' --out '" + out.string() + "'");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("profile h100.yaml; ops priced: "));
  const json pricing = json::parse(slurp(out / "metrics.json"))["pricing"];
  CHECK(pricing["cost_model"] == "profile");
  CHECK(pricing["profile"] == "h100.yaml");
  const json& ops = pricing["ops_priced"];
  CHECK(answered(ops, "gemm", "measured") + answered(ops, "gemm", "interpolated") +
            answered(ops, "gemm", "fitted") >
        0);
  CHECK(answered(ops, "gemm", "datasheet") > 0);  // training on H20
}

TEST_CASE("run --compare-profile prints each phase with and without the profile") {
  const auto out = scratch_dir("compare-profile");
  const CliResult r = run_rlsim("run '" + write_profiled("compare-profile-in") +
                                "' --compare-profile --out '" + out.string() + "'");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("profile against the datasheet roofline") && Contains("phase rollout (mean)") &&
                        Contains("step time, steady state"));
  // The rollout runs on the profile's card, so its time changes; the figure is not 0 %.
  const std::string text = r.out.substr(r.out.find("phase rollout (mean)"));
  const std::string line = text.substr(0, text.find('\n'));
  CHECK_THAT(line, !Contains("+0.0 %"));

  const CliResult none =
      run_rlsim("run scenarios/quickstart.yaml --compare-profile --out '" + out.string() + "/none'");
  CHECK(none.exit_code == 2);
  CHECK_THAT(none.err, Contains("--compare-profile") && Contains("no profile"));
}

TEST_CASE("an AFD run names its precisions and cost model, and weight-only weights on a card without fp8") {
  const auto out = scratch_dir("pricing-afd");
  const std::string run = "run scenarios/afd-step3.yaml --set afd.batch=128 ";
  const CliResult h800 = run_rlsim(run + "--out '" + (out / "h800").string() + "'");
  REQUIRE(h800.exit_code == 0);
  CHECK_THAT(
      h800.out,
      Contains("  precisions                     weights fp8, KV cache fp8, dispatch fp8, combine bf16\n"
               "  cost model                     roofline\n") &&
          !Contains("weight-only"));
  const json m = json::parse(slurp(out / "h800" / "metrics.json"));
  CHECK(m["deployment"]["precisions"]["weights"] == "fp8");
  CHECK(m["deployment"]["precisions"]["combine"] == "bf16");
  CHECK(m["pricing"]["cost_model"] == "roofline");
  const CliResult a800 =
      run_rlsim(run + "--set cluster.pools.attention.gpu=A800 --out '" + (out / "a800").string() + "'");
  REQUIRE(a800.exit_code == 0);
  CHECK_THAT(a800.out,
             Contains("fp8 weights on A800, which has no fp8 peak: stored as fp8, multiplied at its bf16 "
                      "peak (weight-only"));
}
