// Every bundled RL scenario is also a test: its key figures are checked against the committed
// expectations in tests/expectations/scenarios.yaml (2% tolerance; runs are deterministic, the
// slack only absorbs floating-point differences between machines), both ways: a figure the run
// reports that the file does not list (a new bubble cause) fails too. The behaviour each
// scenario exists to show is asserted directly. After an intended model change, regenerate the
// file with RLSIM_PRINT_EXPECTATIONS=1 build/tests/test_sim "bundled*" and review the diff.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <iostream>
#include <set>

#include "sim/afd/afd_iteration_table.h"
#include "sim/afd/afd_simulation.h"
#include "sim/engine/simulation.h"
#include "tests/sim/sim_test_support.h"

using namespace rlsim;

namespace {

using test::Figures;

Figures run_scenario(const std::string& file, const std::vector<std::string>& overrides) {
  LoadOptions options;
  options.overrides = overrides;
  options.data_dir = RLSIM_TEST_SOURCE_DIR;
  const Scenario s =
      load_scenario(std::string(RLSIM_TEST_SOURCE_DIR) + "/scenarios/" + file, options).scenario;
  return test::figures_in_child([&]() {
    const RunMetrics m = simulate(s).metrics;
    Figures out;
    out.set("step_time_s", m.steady_step_time.mean);
    out.set("bubble_fraction", m.bubble_fraction);
    out.set("samples_per_s", m.samples_per_s);
    out.set("tpot_p50_s", m.tpot_s.p50);
    for (const auto& [cause, fraction] : m.bubble_by_cause)
      out.set("wait_" + std::string(enum_name(cause)), fraction);
    return out;
  });
}

// Both ways: every listed figure is reported and within tolerance, and every figure the run reports
// is listed, so a new bubble cause (or one that vanished) fails until the file is reviewed.
void check_expectations(const std::string& name, const Figures& actual) {
  if (std::getenv("RLSIM_PRINT_EXPECTATIONS")) {
    std::cout << name << ":\n";
    for (const auto& key : actual.names()) std::cout << "  " << key << ": " << actual.at(key) << "\n";
    return;
  }
  const YAML::Node all =
      YAML::LoadFile(std::string(RLSIM_TEST_SOURCE_DIR) + "/tests/expectations/scenarios.yaml");
  const YAML::Node expected = all[name];
  REQUIRE(expected.IsMap());
  std::set<std::string> listed;
  for (const auto& entry : expected) {
    const std::string key = entry.first.as<std::string>();
    listed.insert(key);
    INFO(name << "." << key << " is listed in tests/expectations/scenarios.yaml");
    REQUIRE(actual.has(key));
    CHECK(actual.at(key) == Approx(entry.second.as<double>()).epsilon(0.02).margin(1e-4));
  }
  for (const auto& key : actual.names()) {
    INFO(name << "." << key << " = " << actual.at(key)
              << " is reported by the run, so tests/expectations/scenarios.yaml must list it");
    CHECK(listed.count(key) == 1);
  }
}

double cause(const Figures& f, const std::string& name) {
  return f.has("wait_" + name) ? f.at("wait_" + name) : 0.0;
}

}  // namespace

TEST_CASE("bundled quickstart matches its expectations") {
  check_expectations("quickstart", run_scenario("quickstart.yaml", {}));
}

TEST_CASE("bundled colocated-vs-disaggregated: the same cluster both ways") {
  const Figures disaggregated = run_scenario("colocated-vs-disaggregated.yaml", {});
  const Figures colocated = run_scenario("colocated-vs-disaggregated.yaml", {"policy.name=colocated"});
  check_expectations("colocated-vs-disaggregated", disaggregated);
  check_expectations("colocated-vs-disaggregated/colocated", colocated);
  // Sharing every GPU removes the trainer's wait for rollout.
  CHECK(cause(colocated, "train_waits_rollout") == 0.0);
  CHECK(cause(disaggregated, "train_waits_rollout") > 0.2);
  CHECK(colocated.at("bubble_fraction") < disaggregated.at("bubble_fraction"));
}

TEST_CASE("bundled long-tail: the tail costs synchronous steps more than streaming ones") {
  const Figures sync = run_scenario("long-tail.yaml", {});
  const Figures streaming = run_scenario("long-tail.yaml", {"policy.name=streaming"});
  check_expectations("long-tail", sync);
  check_expectations("long-tail/streaming", streaming);
  CHECK(cause(sync, "long_tail") > 0.1);
  CHECK(cause(streaming, "long_tail") < cause(sync, "long_tail"));
  CHECK(streaming.at("step_time_s") < sync.at("step_time_s"));
}

TEST_CASE("bundled agentic: instances wait on agents while tools run") {
  const Figures f = run_scenario("agentic.yaml", {});
  check_expectations("agentic", f);
  // 4.8 % of GPU time with the vllm-v1 engine terms (5.5 % kernels only): decode is slower, so
  // the same tool time is a smaller share.
  CHECK(cause(f, "rollout_waits_agents") > 0.03);
}

TEST_CASE("bundled afd-rollout: ping-pong micro-batches pay off only when the batch is large", "[long]") {
  check_expectations("afd-rollout", run_scenario("afd-rollout.yaml", {}));
  // The instance's iteration time, simulated layer by layer as the RL run's table does, at 4K
  // context: one micro-batch against three, at 256 and at 1024 sequences.
  LoadOptions options;
  options.data_dir = RLSIM_TEST_SOURCE_DIR;
  const Scenario s =
      load_scenario(std::string(RLSIM_TEST_SOURCE_DIR) + "/scenarios/afd-rollout.yaml", options).scenario;
  auto iteration_s = [&](int micro_batches, int64_t batch) {
    Scenario variant = s;
    variant.rollout.afd->micro_batches = micro_batches;
    const Figures point = test::figures_in_child([&]() {
      Figures out;
      out.set("tpot_s", simulate_afd(afd_point_scenario(variant, batch, 4096)).metrics.tpot_s);
      return out;
    });
    return point.at("tpot_s");
  };
  // 32 sequences per attention GPU: decode is memory-bound, and every micro-batch reads the
  // experts' weights again, so splitting the batch costs more than the overlap hides.
  CHECK(iteration_s(1, 256) < iteration_s(3, 256));
  // 128 per GPU: the FFN side has work enough to overlap with attention.
  CHECK(iteration_s(3, 1024) < iteration_s(1, 1024));
}
