// Platform tests: a lone transfer takes Σ latency + size / min bandwidth of the path the YAML
// describes (CM02, no cross-traffic, TCP-gamma 0), and topologies are validated before building.
#include <catch2/catch.hpp>
#include <simgrid/s4u.hpp>

#include "sim/platform/platform.h"
#include "sim/platform/topology.h"
#include "tests/sim/sim_test_support.h"

namespace sg4 = simgrid::s4u;
using namespace rlsim;

namespace {

const char* kTwoPools = R"(
model: qwen3-8b
cluster:
  pools:
    - {name: rollout, gpu: H20, nodes: 2, gpus_per_node: 8}
    - {name: train, gpu: H800, nodes: 1, gpus_per_node: 8}
  nic: {bandwidth: 400Gbps, latency: 2us}
  fabric: {latency: 1us}
  links:
    - {between: [rollout, train], bandwidth: 80Gbps, latency: 5us}
    - {between: [agents, rollout], bandwidth: 200Gbps}
    - {between: [dataplane, train], bandwidth: 100Gbps}
workload: {prompts_per_step: 1}
)";

// Simulates one transfer of `bytes` between two pool GPUs and returns its duration.
double simulate_transfer(const ClusterSpec& cluster, const std::string& from_pool, int from_gpu,
                         const std::string& to_pool, int to_gpu, double bytes) {
  const test::Figures figures = test::figures_in_child([&]() {
    const auto engine = make_engine({});
    Topology topology(cluster);
    Platform platform = build_platform(cluster, topology);
    sg4::Host* from = platform.pool(from_pool).gpus[static_cast<size_t>(from_gpu)];
    sg4::Host* to = platform.pool(to_pool).gpus[static_cast<size_t>(to_gpu)];
    double elapsed = 0.0;
    sg4::Actor::create("sender", from, [&]() {
      sg4::Comm::sendto(from, to, bytes);
      elapsed = sg4::Engine::get_clock();
    });
    engine->run();
    test::Figures out;
    out.set("elapsed_s", elapsed);
    return out;
  });
  return figures.at("elapsed_s");
}

}  // namespace

TEST_CASE("a 1 GB transfer between pools takes size/bandwidth + latency of the YAML path") {
  LoadedScenario loaded = test::load_inline("two-pools", kTwoPools);
  const ClusterSpec& cluster = loaded.scenario.cluster;
  // NIC 2us + rollout fabric 1us + link 5us + train fabric 1us + NIC 2us; narrowest: the 80 Gbps link.
  const double by_hand = 11e-6 + 1e9 / (80e9 / 8);
  Topology topology(cluster);
  CHECK(expected_transfer_seconds(cluster, topology, "rollout", 9, "train", 3, 1e9) ==
        Approx(by_hand).epsilon(1e-12));
  CHECK(simulate_transfer(cluster, "rollout", 9, "train", 3, 1e9) == Approx(by_hand).epsilon(1e-6));
}

TEST_CASE("transfers inside a node use the scale-up ports, across nodes the NICs and fabric") {
  LoadedScenario loaded = test::load_inline("two-pools", kTwoPools);
  const ClusterSpec& cluster = loaded.scenario.cluster;
  // Same node: two H20 NVLink ports (900 GB/s, 1us each).
  CHECK(simulate_transfer(cluster, "rollout", 0, "rollout", 5, 1e9) ==
        Approx(2e-6 + 1e9 / 900e9).epsilon(1e-6));
  // Node 0 to node 1: NIC, fabric, NIC at 50 GB/s.
  CHECK(simulate_transfer(cluster, "rollout", 1, "rollout", 12, 1e9) ==
        Approx(5e-6 + 1e9 / 50e9).epsilon(1e-6));
}

TEST_CASE("routes between zones follow links through intermediate pools") {
  LoadedScenario loaded = test::load_inline("chain", R"(
model: qwen3-8b
cluster:
  pools:
    - {name: a, gpu: H100, nodes: 1}
    - {name: b, gpu: H100, nodes: 1}
  links:
    - {between: [a, agents], bandwidth: 100Gbps, latency: 3us}
    - {between: [agents, b], bandwidth: 200Gbps, latency: 4us}
    - {between: [dataplane, a], bandwidth: 100Gbps}
rollout: {pool: a}
training: {pool: b}
workload: {prompts_per_step: 1}
)");
  const ClusterSpec& cluster = loaded.scenario.cluster;
  Topology topology(cluster);
  REQUIRE(topology.route(topology.zone_index("a"), topology.zone_index("b")).size() == 2);
  const double by_hand = (2e-6 + 1e-6 + 3e-6 + 4e-6 + 1e-6 + 2e-6) + 2e9 / (100e9 / 8);
  CHECK(simulate_transfer(cluster, "a", 0, "b", 7, 2e9) == Approx(by_hand).epsilon(1e-6));
}

TEST_CASE("a pool that no link reaches is rejected at its own line") {
  try {
    LoadedScenario loaded = test::load_inline("island", R"(
model: qwen3-8b
cluster:
  pools:
    - {name: rollout, gpu: H20, nodes: 1}
    - {name: train, gpu: H800, nodes: 1}
  links:
    - {between: [agents, rollout], bandwidth: 100Gbps}
    - {between: [dataplane, rollout], bandwidth: 100Gbps}
workload: {prompts_per_step: 1}
)");
    Topology topology(loaded.scenario.cluster);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.where().line == 6);
    CHECK_THAT(e.message(), Catch::Contains("pool 'train' cannot reach"));
  }
}
