// Streaming trains each mini-batch as it fills: one optimizer step (one gradient exchange) per
// mini-batch, as many per RL step as the synchronous loop makes, not training.mini_batches per
// mini-batch; it syncs the weights syncs_per_step times a step, and keeps in_flight_steps steps'
// worth of trajectories launched.
#include <catch2/catch.hpp>

#include "sim/engine/simulation.h"
#include "sim/scenario/scenario_loader.h"
#include "tests/sim/sim_test_support.h"

using namespace rlsim;

namespace {

/// Per-step phase means of the quickstart under `policy` with 4 mini-batches and `extra` overrides.
test::Figures phases(const std::string& policy, const std::vector<std::string>& extra = {}) {
  return test::figures_in_child([&]() {
    LoadOptions options;
    options.overrides = {"policy.name=" + policy, "training.mini_batches=4", "workload.steps=4"};
    options.overrides.insert(options.overrides.end(), extra.begin(), extra.end());
    options.data_dir = RLSIM_TEST_SOURCE_DIR;
    const Scenario s =
        load_scenario(std::string(RLSIM_TEST_SOURCE_DIR) + "/scenarios/quickstart.yaml", options).scenario;
    const RunMetrics m = simulate(s).metrics;
    test::Figures out;
    out.set("train_s", m.phase_mean_s.at("train"));
    out.set("sync_s", m.phase_mean_s.at("weight_sync"));
    out.set("occupancy", m.rollout_load.batch_occupancy);
    return out;
  });
}

double train_s_per_step(const std::string& policy) { return phases(policy).at("train_s"); }

}  // namespace

TEST_CASE("streaming makes one optimizer step per mini-batch, as the synchronous loop does") {
  const double synchronous = train_s_per_step("disaggregated");
  const double streaming = train_s_per_step("streaming");
  INFO("train per step: disaggregated " << synchronous << " s, streaming " << streaming << " s");
  // The same sequences, mini-batches and exchanges: the same training time but for how the
  // sequences fall into mini-batches (finish order: the first mini-batches take the short ones) and
  // over the ranks; training.mini_batches optimizer steps per mini-batch would be far above.
  CHECK(streaming == Approx(synchronous).epsilon(0.15));
}

TEST_CASE("streaming syncs the weights syncs_per_step times a step, once by default") {
  const double once = phases("streaming").at("sync_s");
  const double every_mini_batch = phases("streaming", {"policy.syncs_per_step=4"}).at("sync_s");
  CHECK(once > 0.0);
  CHECK(every_mini_batch == Approx(4.0 * once).epsilon(0.05));
  CHECK_THROWS_WITH(phases("streaming", {"policy.syncs_per_step=3"}),
                    Catch::Contains("syncs_per_step to divide training.mini_batches (4)"));
}

TEST_CASE("streaming keeps in_flight_steps steps' worth launched, at most max_staleness + 1") {
  const double one = phases("streaming").at("occupancy");
  const double two = phases("streaming", {"policy.in_flight_steps=2"}).at("occupancy");
  INFO("decode batch occupancy: one step in flight " << one << ", two " << two);
  CHECK(two > 1.3 * one);
  CHECK_THROWS_WITH(phases("streaming", {"policy.in_flight_steps=3"}),
                    Catch::Contains("expected in_flight_steps of at most that, found 3"));
}
