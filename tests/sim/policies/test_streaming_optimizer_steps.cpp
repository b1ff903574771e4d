// Streaming trains each mini-batch as it fills: one optimizer step (one gradient exchange) per
// mini-batch, as many per RL step as the synchronous loop makes, not training.mini_batches per
// mini-batch.
#include <catch2/catch.hpp>

#include "sim/engine/simulation.h"
#include "sim/scenario/scenario_loader.h"
#include "tests/sim/sim_test_support.h"

using namespace rlsim;

namespace {

/// Mean training time per steady step of the quickstart under `policy` with 4 mini-batches.
double train_s_per_step(const std::string& policy) {
  const test::Figures f = test::figures_in_child([&]() {
    LoadOptions options;
    options.overrides = {"policy.name=" + policy, "training.mini_batches=4", "workload.steps=4"};
    options.data_dir = RLSIM_TEST_SOURCE_DIR;
    const Scenario s =
        load_scenario(std::string(RLSIM_TEST_SOURCE_DIR) + "/scenarios/quickstart.yaml", options).scenario;
    test::Figures out;
    out.set("train_s", simulate(s).metrics.phase_mean_s.at("train"));
    return out;
  });
  return f.at("train_s");
}

}  // namespace

TEST_CASE("streaming makes one optimizer step per mini-batch, as the synchronous loop does") {
  const double synchronous = train_s_per_step("disaggregated");
  const double streaming = train_s_per_step("streaming");
  INFO("train per step: disaggregated " << synchronous << " s, streaming " << streaming << " s");
  // The same sequences, mini-batches and exchanges: the same training time but for how the
  // sequences fall into mini-batches (finish order) and over the ranks.
  CHECK(streaming == Approx(synchronous).epsilon(0.10));
}
