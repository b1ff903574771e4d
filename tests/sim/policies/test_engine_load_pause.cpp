// weight_sync.engine_load: every instance pauses to load an update into its engine for calls × per
// call, and the next step's rollout starts that much later, under the synchronous policies.
#include <catch2/catch.hpp>

#include "models/arch_params.h"
#include "sim/engine/simulation.h"
#include "sim/engine/weight_sync.h"
#include "tests/sim/sim_test_support.h"

using namespace rlsim;
using namespace rlsim::test;

namespace {

/// The rollout phase of step 1 (the first that starts after an update) of `yaml` under `overrides`.
double second_rollout_s(const char* yaml, const std::vector<std::string>& overrides) {
  std::vector<std::string> all = {"workload.steps=2"};
  all.insert(all.end(), overrides.begin(), overrides.end());
  return figures_in_child([&]() {
           Figures out;
           out.set("rollout_s",
                   simulate(load_inline("engine-load", yaml, all).scenario).metrics.per_step.at(1).rollout_s);
           return out;
         })
      .at("rollout_s");
}

}  // namespace

TEST_CASE("an update loaded tensor by tensor delays the next rollout by the tensors' calls") {
  const Scenario s = load_inline("engine-load-check", kTwoPools,
                                 {"weight_sync.engine_load=per_tensor", "weight_sync.per_call=100ms"})
                         .scenario;
  // Qwen3-8B: 36 layers of 4 projections, 2 norms and 3 FFN matrices; embedding, norm, lm_head.
  REQUIRE(checkpoint_tensor_count(s.model) == 36 * 9 + 3);
  CHECK(engine_load_pause_s(s) == Approx(327 * 0.1));

  const std::vector<std::string> per_tensor = {"weight_sync.engine_load=per_tensor",
                                               "weight_sync.per_call=100ms"};
  SECTION("disaggregated") {
    CHECK(second_rollout_s(kTwoPools, per_tensor) - second_rollout_s(kTwoPools, {}) ==
          Approx(32.7).epsilon(0.01));
  }
  SECTION("colocated: the engine loads after the switch back to rollout") {
    const Scenario colocated = load_inline("engine-load-colocated", kColocatedPool, per_tensor).scenario;
    CHECK(second_rollout_s(kColocatedPool, per_tensor) - second_rollout_s(kColocatedPool, {}) ==
          Approx(engine_load_pause_s(colocated)).epsilon(0.01));
  }
}

TEST_CASE("a bucketed update makes one call per bucket the model's bytes fill") {
  const Scenario s = load_inline("engine-load-buckets", kTwoPools,
                                 {"weight_sync.engine_load=bucketed", "weight_sync.bucket=1GiB"})
                         .scenario;
  const double buckets = std::ceil(weight_bytes(s.model, s.weight_sync.precision) / (1024.0 * 1024 * 1024));
  CHECK(engine_load_pause_s(s) == Approx(buckets * 0.30));  // the bucketed default per call
}

TEST_CASE("an engine_load that is not a mode is refused with the modes") {
  CHECK_THAT(load_error(std::string(kTwoPools) + "weight_sync: {engine_load: shards}\n").what(),
             Catch::Contains("per_tensor"));
}
