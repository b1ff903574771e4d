// A property of the input contract: any scenario `rlsim validate` accepts runs to exit 0 with
// finite figures (or is refused by validate itself). Checked on seeded random perturbations of the
// quick-start scenario, kept small so each run takes well under a second.
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_support.h"

using namespace rlsim::test;

namespace {

struct Knob {
  const char* path;
  std::vector<const char*> values;
};

// Values chosen to reach the corners: one-token outputs, prompts longer than the context limit,
// batches of one, more GPUs per instance than the pool holds, every policy.
const std::vector<Knob> kKnobs = {
    {"workload.prompts_per_step", {"1", "2", "3"}},
    {"workload.samples_per_prompt", {"1", "2", "5"}},
    {"workload.turns", {"1", "2", "4"}},
    {"workload.output_tokens", {"1", "64", "2048", "{lognormal: {mean: 300, sigma: 1.5}}"}},
    {"workload.prompt_tokens", {"1", "512", "30000"}},
    {"workload.max_context_tokens", {"0", "600", "40000"}},
    {"workload.tool_latency", {"0s", "2s"}},
    {"rollout.tp", {"1", "2", "4", "8", "16"}},
    {"rollout.max_batch", {"1", "3", "1024"}},
    {"policy.name", {"colocated", "disaggregated", "overlap", "streaming", "labels"}},
    {"seed", {"0", "7", "9223372036854775807"}},
};

}  // namespace

TEST_CASE("a scenario validate accepts runs to exit 0 with finite figures", "[cli][property]") {
  uint64_t state = 20261201;  // a fixed seed: the same perturbations every run
  const auto next = [&state](size_t n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<size_t>((state >> 33) % n);
  };
  int accepted = 0;
  for (int trial = 0; trial < 24; ++trial) {
    std::string sets = " --set workload.steps=2";
    for (const Knob& knob : kKnobs) {
      if (next(2) == 0) continue;
      sets += std::string(" --set '") + knob.path + "=" + knob.values[next(knob.values.size())] + "'";
    }
    INFO("rlsim validate scenarios/quickstart.yaml" << sets);
    const CliResult check = run_rlsim("validate scenarios/quickstart.yaml" + sets);
    REQUIRE((check.exit_code == 0 || check.exit_code == 2));
    if (check.exit_code == 2) {
      CHECK_THAT(check.err, Catch::Contains(": error: "));
      continue;
    }
    ++accepted;
    const auto out = scratch_dir("validate-implies-runs") / "out";
    const CliResult run = run_rlsim("run scenarios/quickstart.yaml" + sets + " --out '" + out.string() + "'");
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    const auto metrics = nlohmann::json::parse(slurp(out / "metrics.json"));
    const auto& step = metrics.at("step_time_s");
    CHECK(step.at("mean").is_number());  // NaN and infinity are written as null
    CHECK(step.at("mean").get<double>() > 0.0);
    CHECK(metrics.at("throughput").at("samples_per_s").is_number());
  }
  CHECK(accepted >= 6);  // the property says something only if some perturbations run
}
