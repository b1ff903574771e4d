// A scenario's `profile:` makes the engine use calibrated numbers on the profile's card only.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "models/cost/cost_model_registry.h"
#include "models/timing/inference_time.h"
#include "tests/scenario_fixtures.h"
#include "tests/sim/sim_test_support.h"

using namespace rlsim;

namespace {
const std::string kH100 = std::string(test::kProfiledH100) + "workload: {prompts_per_step: 4}\n";
}  // namespace

TEST_CASE("a scenario's profile is found in the rlsim tree and selects the profile cost model") {
  const Scenario s = test::load_inline("profiled", kH100).scenario;
  CHECK(s.cost_model.name == "profile");
  CHECK_THAT(s.profile, Catch::EndsWith("calibrate/profiles/h100.yaml"));
  CHECK_THROWS_AS(test::load_inline("missing", std::string(kH100) + "cost_model: roofline\n",
                                    {"profile=no/such/profile.yaml"}),
                  InputError);
}

TEST_CASE("the profile changes times on its own card and leaves other cards to the datasheet roofline") {
  const Scenario s = test::load_inline("profiled", kH100).scenario;
  const auto profiled = make_cost_model(s.cost_model, s.profile);
  const auto roofline = make_cost_model({"roofline"});
  const HardwareSpec& h100 = s.cluster.pools[0].card;
  const HardwareSpec& h20 = s.cluster.pools[1].card;
  double largest_change = 0.0;
  for (int64_t m : {1, 16, 96, 512, 4096, 16384}) {
    const Op gemm = make_gemm("mlp_up_proj", m, 2 * 11008, 4096);
    largest_change = std::max(largest_change,
                              std::abs(profiled->seconds(gemm, h100) / roofline->seconds(gemm, h100) - 1.0));
    CHECK(profiled->seconds(gemm, h20) == Approx(roofline->seconds(gemm, h20)).epsilon(1e-12));
  }
  CHECK(largest_change > 0.05);
  CHECK(prefill_seconds(s.model, h20, *profiled, 2048, 0, 1, Precision::bf16) ==
        Approx(prefill_seconds(s.model, h20, *roofline, 2048, 0, 1, Precision::bf16)).epsilon(1e-12));
}

TEST_CASE("a profile of a card no pool uses is an error at the profile field, not silently unused") {
  try {
    test::load_inline("unused", kH100, {"cluster.pools.0.gpu=H800"});
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    // The line of `profile: calibrate/profiles/h100.yaml` in the fixture.
    const std::string text = kH100;
    const auto profile_line = 1 + std::count(text.begin(), text.begin() + text.find("profile:"), '\n');
    CHECK(e.where().line == profile_line);
    CHECK_THAT(e.message(), Catch::Contains("measured on H100, which no pool uses") &&
                                Catch::Contains("rollout (H800)") && Catch::Contains("train (H20)"));
  }
}
