// A scenario that asks for more than a run can hold is refused before it runs, at the field to
// change; one just inside every limit loads.
#include <catch2/catch.hpp>

#include "sim/scenario/resource_limits.h"
#include "tests/sim/sim_test_support.h"

using namespace rlsim;

namespace {

/// test::kTwoPools loaded, with the readers check_resource_limits locates its errors with.
struct TwoPools {
  LoadedScenario loaded = test::load_inline("ok", test::kTwoPools);
  YAML::Node resolved{YAML::NodeType::Map};
  YamlSource source = load_yaml_text(test::kTwoPools, "inline.yaml");
  YamlReader root{source, source.root, "", resolved};
  YamlReader workload = root.map("workload");
  YamlReader cluster = root.map("cluster");
};

}  // namespace

TEST_CASE("prompts × samples past the limit is refused at prompts_per_step, without overflowing") {
  // 1,000,000 × 4,096 overflows a 32-bit int: the product must be computed wide and refused.
  const InputError e = test::load_error(
      test::kTwoPools, {"workload.prompts_per_step=1000000", "workload.samples_per_prompt=4096"});
  CHECK_THAT(e.what(), Catch::Contains("prompts_per_step") && Catch::Contains("4096000000 trajectories"));
}

TEST_CASE("a mean of a million turns per trajectory is refused at turns") {
  const InputError e = test::load_error(test::kTwoPools, {"workload.turns=1000000"});
  CHECK_THAT(e.what(), Catch::Contains("turns") && Catch::Contains("LLM calls per trajectory"));
}

TEST_CASE("a run of too many LLM calls is refused and the limit itself is allowed") {
  const TwoPools two_pools;
  const Scenario& scenario = two_pools.loaded.scenario;
  const YamlReader& workload = two_pools.workload;
  const YamlReader& cluster = two_pools.cluster;
  // 2 prompts × 8 samples × 1 turn × 3 steps = 48 calls on 16 GPUs.
  ResourceLimits limits;
  limits.llm_calls = 48;
  limits.gpus = 16;
  CHECK_NOTHROW(check_resource_limits(scenario, workload, cluster, limits));
  limits.llm_calls = 47;
  CHECK_THROWS_WITH(check_resource_limits(scenario, workload, cluster, limits),
                    Catch::Contains("about 48 LLM calls"));
  limits.llm_calls = 48;
  limits.gpus = 15;
  CHECK_THROWS_WITH(check_resource_limits(scenario, workload, cluster, limits),
                    Catch::Contains("16 GPUs") && Catch::Contains("inline.yaml:"));
}

TEST_CASE("a context limit not above the prompt is refused as the run would generate nothing") {
  const InputError e = test::load_error(test::kTwoPools, {"workload.max_context_tokens=10"});
  CHECK_THAT(e.what(), Catch::Contains("max_context_tokens") && Catch::Contains("mean prompt (512 tokens)"));
  CHECK_NOTHROW(test::load_inline("ok", test::kTwoPools, {"workload.max_context_tokens=513"}));
}

TEST_CASE("a run whose estimated memory is past the budget is refused at the field that weighs most") {
  const TwoPools two_pools;
  const Scenario& scenario = two_pools.loaded.scenario;
  const YamlReader& workload = two_pools.workload;
  const YamlReader& cluster = two_pools.cluster;
  // 16 trajectories a step, 48 LLM calls, 16 GPUs.
  ResourceLimits limits;
  limits.bytes_per_trajectory = 1e9;
  limits.bytes_per_llm_call = 0.1e9;
  limits.bytes_per_gpu = 0.2e9;
  CHECK(estimated_memory_bytes(scenario, limits) == Approx(16e9 + 4.8e9 + 3.2e9));
  limits.memory_bytes = 24e9;
  CHECK_NOTHROW(check_resource_limits(scenario, workload, cluster, limits));
  limits.memory_bytes = 23e9;
  CHECK_THROWS_WITH(check_resource_limits(scenario, workload, cluster, limits),
                    Catch::Contains("about 22.4 GiB of memory") &&
                        Catch::Contains("at most 21.5 GiB: fewer prompts per step"));
  limits.bytes_per_llm_call = 1e9;  // the calls weigh most now
  CHECK_THROWS_WITH(check_resource_limits(scenario, workload, cluster, limits),
                    Catch::Contains("48 LLM calls 44.8 GiB") && Catch::Contains(": fewer steps"));
  limits.bytes_per_gpu = 10e9;  // and now the GPUs
  CHECK_THROWS_WITH(check_resource_limits(scenario, workload, cluster, limits),
                    Catch::Contains("16 GPUs 149.1 GiB") && Catch::Contains(": fewer GPUs"));
}

TEST_CASE(
    "the memory budget admits the 65,536-GPU scale point and refuses 1.6 million 4-turn trajectories a "
    "step") {
  // tools/bench/cluster-scale's largest point: 8 trajectories per GPU, 4 turns, one step.
  const std::string scale = R"(
model: qwen3-8b
cluster:
  pools:
    - {name: rollout, gpu: H800, nodes: 4096, gpus_per_node: 8}
    - {name: train, gpu: H800, nodes: 4096, gpus_per_node: 8}
  links:
    - {between: [rollout, train], bandwidth: 3200Gbps}
    - {between: [agents, rollout], bandwidth: 800Gbps}
    - {between: [dataplane, rollout], bandwidth: 800Gbps}
  agents: {hosts: 4096, cores: 128}
workload: {steps: 1, prompts_per_step: 65536, samples_per_prompt: 8, turns: 4, tool_latency: 1s}
rollout: {pool: rollout, tp: 1}
training: {pool: train, tp: 8}
)";
  const LoadedScenario loaded = test::load_inline("scale", scale);
  CHECK(estimated_memory_bytes(loaded.scenario) < ResourceLimits{}.memory_bytes);
  const InputError e =
      test::load_error(test::kTwoPools, {"workload.prompts_per_step=200000", "workload.turns=4"});
  CHECK_THAT(e.what(), Catch::Contains("of memory") && Catch::Contains("1600000 trajectories in a step") &&
                           Catch::Contains("fewer steps, or fewer prompts per step"));
}
