// A fault's cost is reported wherever it falls: a fault in the warm-up step is named, in the summary
// and metrics.json and in compare, never silently left out with the steady state; restarting after
// a repair is the fault's time (wait:fault), so a longer restart costs more fault time.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_support.h"

using namespace rlsim::test;

namespace {

const std::string kWarmupFault =
    " --set workload.steps=4 --set workload.prompts_per_step=4 --set policy.name=colocated"
    " --set faults.events.0.at=1s --set faults.events.0.repair_after=60s";

nlohmann::json faults_of(const std::string& extra, const std::string& name) {
  const auto out = scratch_dir("fault-accounting") / name;
  const CliResult r =
      run_rlsim("run scenarios/faults.yaml" + kWarmupFault + extra + " --out '" + out.string() + "'");
  REQUIRE(r.exit_code == 0);
  return nlohmann::json::parse(slurp(out / "metrics.json")).at("faults");
}

}  // namespace

TEST_CASE("a fault in the warm-up step is named as outside the steady state, in run and in compare") {
  const auto out = scratch_dir("fault-accounting") / "warmup";
  const CliResult r = run_rlsim("run scenarios/faults.yaml" + kWarmupFault + " --out '" + out.string() + "'");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("touched step 0w (all outside the steady state"));
  const auto faults = nlohmann::json::parse(slurp(out / "metrics.json")).at("faults");
  CHECK(faults.at("steps_touched") == nlohmann::json::array({0}));
  CHECK(faults.at("steps_touched_outside_steady_state") == nlohmann::json::array({0}));

  const CliResult compared = run_rlsim("compare scenarios/faults.yaml" + kWarmupFault +
                                       " --policies colocated --out '" + (out / "compare").string() + "'");
  REQUIRE(compared.exit_code == 0);
  CHECK_THAT(compared.out,
             Catch::Contains("faults under colocated touched step 0, outside its steady state"));
}

TEST_CASE("restarting after a repair counts as fault time") {
  const nlohmann::json quick = faults_of(" --set faults.restart=0s", "restart-0");
  const nlohmann::json slow = faults_of(" --set faults.restart=30s", "restart-30");
  // Every stopped GPU restarts for 30 s more.
  CHECK(slow.at("gpu_seconds_stopped").get<double>() - quick.at("gpu_seconds_stopped").get<double>() ==
        Approx(30.0 * slow.at("gpus_stopped").get<double>()).epsilon(0.05));
}
