// Scenario loading: defaults, units, overrides, the resolved YAML, and located errors.
#include <catch2/catch.hpp>

#include "tests/sim/sim_test_support.h"

using namespace rlsim;

namespace {
const char* kMinimal = R"(
model: qwen3-8b
cluster:
  pools:
    - {name: rollout, gpu: H20, nodes: 2}
    - {name: train, gpu: H800, nodes: 1}
  links:
    - {between: [rollout, train], bandwidth: 400Gbps}
    - {between: [agents, rollout], bandwidth: 100Gbps}
    - {between: [dataplane, rollout], bandwidth: 100Gbps}
workload:
  prompts_per_step: 16
  output_tokens: {lognormal: {mean: 1500, sigma: 1.0}, max: 16384}
  tool_latency: {uniform: {min: 1s, max: 30s}}
)";

InputError load_error(const std::string& yaml, std::vector<std::string> overrides = {}) {
  try {
    test::load_inline("bad", yaml, std::move(overrides));
  } catch (const InputError& e) {
    return e;
  }
  FAIL("expected an InputError");
  return InputError({}, "");
}
}  // namespace

TEST_CASE("defaults come from the catalog and the schema") {
  Scenario s = test::load_inline("minimal", kMinimal).scenario;
  CHECK(s.seed == 1);
  CHECK(s.cluster.pools[0].gpus_per_node == 8);
  CHECK(s.cluster.pools[0].intra_node.bandwidth_bytes_per_s == Approx(900e9));  // H20 NVLink
  CHECK(s.cluster.pools[1].intra_node.bandwidth_bytes_per_s == Approx(400e9));  // H800 NVLink
  CHECK(s.cluster.pools[0].nic.bandwidth_bytes_per_s == Approx(50e9));
  CHECK(s.rollout.pool == "rollout");
  CHECK(s.training.pool == "train");
  CHECK(s.training.dp == 8);
  CHECK(s.workload.samples_per_prompt == 8);
  CHECK(s.workload.output_tokens.kind == Distribution::Kind::lognormal);
  CHECK(s.workload.output_tokens.max == 16384);
  CHECK(s.workload.tool_latency_s.high == Approx(30.0));
  CHECK(s.model.layers == 36);
}

TEST_CASE("overrides with --set reach any field, list items by index or by name") {
  Scenario s = test::load_inline("minimal", kMinimal,
                                 {"cluster.pools.rollout.nodes=4", "cluster.links.0.bandwidth=800Gbps",
                                  "seed=9", "workload.output_tokens=2048"})
                   .scenario;
  CHECK(s.cluster.pools[0].nodes == 4);
  CHECK(s.cluster.links[0].params.bandwidth_bytes_per_s == Approx(100e9));
  CHECK(s.seed == 9);
  CHECK(s.workload.output_tokens.kind == Distribution::Kind::fixed);
  CHECK(s.workload.output_tokens.value == 2048);
}

TEST_CASE("a bad --set value is reported against the --set argument") {
  InputError e = load_error(kMinimal, {"cluster.pools.0.nodes=-3"});
  CHECK(e.where().file == "--set cluster.pools.0.nodes=-3");
  CHECK_THAT(e.message(), Catch::Contains("whole number from 1"));
  CHECK_THROWS_AS(test::load_inline("m", kMinimal, {"cluster.pools.nosuch.nodes=2"}), InputError);
}

TEST_CASE("resolved YAML holds every default and reloads to the same scenario") {
  LoadedScenario first = test::load_inline("minimal", kMinimal);
  CHECK_THAT(first.resolved_yaml, Catch::Contains("max_batch: 256"));
  CHECK_THAT(first.resolved_yaml, Catch::Contains("bandwidth: 50GBps"));
  LoadedScenario again = test::load_inline("resolved", first.resolved_yaml);
  CHECK(again.resolved_yaml == first.resolved_yaml);
}

TEST_CASE("resolved YAML leaves out the bounds of an uncapped distribution and keeps given ones") {
  LoadedScenario loaded = test::load_inline("bounds", kMinimal);
  CHECK(loaded.scenario.workload.output_tokens.max == 16384);
  CHECK_THAT(loaded.resolved_yaml, Catch::Contains("max: 16384"));
  CHECK_THAT(loaded.resolved_yaml, !Catch::Contains("max: 0\n") && !Catch::Contains("min: 0\n"));
  LoadedScenario again = test::load_inline("resolved", loaded.resolved_yaml);
  CHECK(again.scenario.workload.output_tokens.max == 16384);
  CHECK(again.scenario.workload.prompt_tokens.max == 0.0);
  CHECK(again.resolved_yaml == loaded.resolved_yaml);
}

TEST_CASE("errors name the line and column and what was expected") {
  InputError unknown = load_error(std::string(kMinimal) + "polcy: {name: disaggregated}\n");
  CHECK(unknown.where().line == 15);
  CHECK(unknown.where().column == 1);
  CHECK_THAT(unknown.message(), Catch::Contains("did you mean 'policy'"));

  InputError gpu = load_error(R"(
model: qwen3-8b
cluster:
  pools:
    - {name: rollout, gpu: H2O, nodes: 2}
workload: {prompts_per_step: 1}
)");
  CHECK(gpu.where().line == 5);
  CHECK_THAT(gpu.message(), Catch::Contains("unknown GPU 'H2O'") && Catch::Contains("H800"));

  InputError bandwidth = load_error(R"(
model: qwen3-8b
cluster:
  pools: [{name: rollout, gpu: H20, nodes: 1}]
  links: [{between: [rollout, agents], bandwidth: 400}]
workload: {prompts_per_step: 1}
)");
  CHECK(bandwidth.where().line == 5);
  CHECK_THAT(bandwidth.message(), Catch::Contains("400Gbps"));
}
