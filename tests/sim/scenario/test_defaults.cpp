// Every scenario default is declared once, as a member initialiser in the spec structs: a Scenario
// built in code gets the values that loading a minimal YAML gives.
#include <catch2/catch.hpp>

#include "sim/scenario/afd_reader.h"
#include "tests/sim/sim_test_support.h"

using namespace rlsim;

namespace {
void check_same_distribution(const Distribution& a, const Distribution& b) {
  CHECK(a.kind == b.kind);
  CHECK(a.value == b.value);
  CHECK(a.min == b.min);
  CHECK(a.max == b.max);
}
}  // namespace

TEST_CASE("a Scenario built in code gets the defaults a minimal YAML gets") {
  const Scenario loaded = test::load_inline("minimal", test::kTwoPools).scenario;
  const Scenario code;
  CHECK(code.seed == loaded.seed);

  const WorkloadSpec& w = loaded.workload;
  CHECK(code.workload.steps == w.steps);
  CHECK(code.workload.steps == 3);
  CHECK(code.workload.samples_per_prompt == w.samples_per_prompt);
  CHECK(code.workload.samples_per_prompt == 8);
  check_same_distribution(code.workload.turns, w.turns);
  check_same_distribution(code.workload.prompt_tokens, w.prompt_tokens);
  check_same_distribution(code.workload.output_tokens, w.output_tokens);
  check_same_distribution(code.workload.observation_tokens, w.observation_tokens);
  check_same_distribution(code.workload.tool_latency_s, w.tool_latency_s);
  CHECK(code.workload.max_context_tokens == w.max_context_tokens);

  const ClusterSpec& c = loaded.cluster;
  CHECK(code.cluster.dataplane.bytes_per_s == c.dataplane.bytes_per_s);
  CHECK(code.cluster.dataplane.bytes_per_s == 1e9);
  CHECK(code.cluster.dataplane.enabled == c.dataplane.enabled);
  CHECK(code.cluster.dataplane.seconds_per_record == c.dataplane.seconds_per_record);
  CHECK(code.cluster.dataplane.nic.bandwidth_bytes_per_s == c.dataplane.nic.bandwidth_bytes_per_s);
  CHECK(code.cluster.dataplane.nic.latency_s == c.dataplane.nic.latency_s);
  CHECK(code.cluster.agents.hosts == c.agents.hosts);
  CHECK(code.cluster.agents.cores == c.agents.cores);
  CHECK(code.cluster.agents.nic.bandwidth_bytes_per_s == c.agents.nic.bandwidth_bytes_per_s);
  CHECK(code.cluster.agents.nic.latency_s == c.agents.nic.latency_s);
  CHECK(code.cluster.fabric.latency_s == c.fabric.latency_s);
  const PoolSpec pool;
  CHECK(pool.gpus_per_node == c.pools[0].gpus_per_node);
  CHECK(pool.intra_node.latency_s == c.pools[0].intra_node.latency_s);
  CHECK(pool.nic.latency_s == c.pools[0].nic.latency_s);
  CHECK(ClusterLinkSpec{}.params.latency_s == c.links[0].params.latency_s);

  const RolloutSpec& r = loaded.rollout;
  CHECK(code.rollout.max_batch == r.max_batch);
  CHECK(code.rollout.max_batch == 256);
  CHECK(code.rollout.tp == r.tp);
  CHECK(code.rollout.router.name == r.router.name);
  CHECK(code.rollout.prefix_cache == r.prefix_cache);
  CHECK(code.rollout.preemption == r.preemption);
  CHECK(code.rollout.swap_bandwidth_bytes_per_s == r.swap_bandwidth_bytes_per_s);
  CHECK(code.rollout.activation_memory_fraction == r.activation_memory_fraction);

  CHECK(code.training.algorithm == loaded.training.algorithm);
  CHECK(code.training.mini_batches == loaded.training.mini_batches);
  CHECK(code.training.sequence_tokens == loaded.training.sequence_tokens);
  CHECK(code.weight_sync.method == loaded.weight_sync.method);
  CHECK(code.colocation.host_bandwidth_bytes_per_s == loaded.colocation.host_bandwidth_bytes_per_s);
  CHECK(code.colocation.optimizer_bytes_per_param == loaded.colocation.optimizer_bytes_per_param);
  CHECK(code.policy.name == loaded.policy.name);
  CHECK(code.cost_model.name == loaded.cost_model.name);
  CHECK(code.labels.interruptible == loaded.labels.interruptible);
  CHECK(code.labels.launch == loaded.labels.launch);
  CHECK(code.labels.preemption == loaded.labels.preemption);
  CHECK(code.faults.recovery == loaded.faults.recovery);
  CHECK(code.faults.checkpoint_interval == loaded.faults.checkpoint_interval);
  CHECK(code.faults.restart_s == loaded.faults.restart_s);
}

TEST_CASE("an AFD rollout and an AFD scenario built in code get their YAML defaults") {
  const Scenario loaded = test::load_inline("afd", std::string(test::kTwoPools) + R"(
rollout:
  pool: rollout
  afd: {ffn_pool: train}
training: {pool: rollout}
policy: {name: colocated}
)")
                              .scenario;
  REQUIRE(loaded.rollout.afd);
  const AfdRolloutSpec code;
  CHECK(code.micro_batches == loaded.rollout.afd->micro_batches);
  CHECK(code.dispatch == loaded.rollout.afd->dispatch);
  CHECK(code.combine == loaded.rollout.afd->combine);

  const AfdDeploymentSpec deployment;
  LoadOptions options;
  options.data_dir = RLSIM_TEST_SOURCE_DIR;
  const AfdScenario afd = load_afd_scenario(test::write_scenario("afd-kind", R"(
kind: afd
model: qwen3-8b
cluster:
  pools:
    - {name: attention, gpu: H20, nodes: 1}
    - {name: ffn, gpu: H800, nodes: 1}
  links:
    - {between: [attention, ffn], bandwidth: 400Gbps}
afd: {batch: 64}
)"),
                                            options)
                              .scenario;
  CHECK(deployment.micro_batches == afd.afd.micro_batches);
  CHECK(deployment.context == afd.afd.context);
  CHECK(deployment.target_tpot_s == afd.afd.target_tpot_s);
  CHECK(deployment.iterations == afd.afd.iterations);
  CHECK(deployment.precisions.weights == afd.afd.precisions.weights);
  CHECK(deployment.precisions.combine == afd.afd.precisions.combine);
  CHECK(AfdScenario{}.cost_model.name == afd.cost_model.name);
}
