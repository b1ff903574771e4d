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

TEST_CASE("a platform of N nodes has a host per GPU, two links per GPU, and one route per node") {
  LoadedScenario loaded = test::load_inline("many-nodes", R"(
model: qwen3-8b
cluster:
  pools:
    - {name: rollout, gpu: H20, nodes: 5, gpus_per_node: 8}
    - {name: train, gpu: H800, nodes: 3, gpus_per_node: 8}
  nic: {bandwidth: 400Gbps, latency: 2us}
  links:
    - {between: [rollout, train], bandwidth: 80Gbps, latency: 5us}
    - {between: [agents, rollout], bandwidth: 200Gbps}
    - {between: [dataplane, train], bandwidth: 100Gbps}
  agents: {hosts: 4, cores: 16}
workload: {prompts_per_step: 1}
)");
  const ClusterSpec& cluster = loaded.scenario.cluster;
  const test::Figures figures = test::figures_in_child([&]() {
    const auto engine = make_engine({});
    Topology topology(cluster);
    Platform platform = build_platform(cluster, topology);
    test::Figures out;
    out.set("hosts", static_cast<double>(engine->get_host_count()));
    out.set("links", static_cast<double>(engine->get_link_count()) -
                         (engine->link_by_name_or_null("__loopback__") != nullptr ? 1 : 0));  // SimGrid's own
    const auto route = [&](sg4::Host* from, sg4::Host* to) {
      std::vector<sg4::Link*> links;
      double latency = 0.0;
      from->route_to(to, links, &latency);
      std::string names;
      for (const auto* link : links) names += (names.empty() ? "" : " ") + link->get_name();
      return names;
    };
    const auto& rollout = platform.pool("rollout").gpus;
    out.set_text("node_to_node", route(rollout[3], rollout[4 * 8 + 1]));
    out.set_text("agent_to_agent", route(platform.agent_hosts[0], platform.agent_hosts[3]));
    out.set_text("agent_to_gpu", route(platform.agent_hosts[2], rollout[9]));
    out.set_text("gpu_to_agent", route(rollout[9], platform.agent_hosts[2]));
    const sg4::Link* fabric = engine->link_by_name("rollout-fabric");
    out.set("fabric_non_blocking", non_blocking(fabric) ? 1.0 : 0.0);
    out.set("fabric_bandwidth", fabric->get_bandwidth());
    out.set("nic_non_blocking", non_blocking(engine->link_by_name("agents0-nic")) ? 1.0 : 0.0);
    return out;
  });
  // 64 GPUs, 4 agent hosts, the data-plane host.
  CHECK(figures.at("hosts") == 64 + 4 + 1);
  // Per GPU a scale-up port and a NIC; a fabric per pool; a NIC per agent and data-plane host; the
  // three cluster links.
  CHECK(figures.at("links") == 64 * 2 + 2 + 4 + 1 + 3);
  // The fabric is crossed once between nodes, and once on each side of a pool's edge.
  CHECK(figures.text("node_to_node") == "rollout-node0-gpu3-nic rollout-fabric rollout-node4-gpu1-nic");
  CHECK(figures.text("agent_to_agent") == "agents0-nic agents3-nic");
  CHECK(figures.text("agent_to_gpu") ==
        "agents2-nic link-agents-rollout-1 rollout-fabric rollout-node1-gpu1-nic");
  CHECK(figures.text("gpu_to_agent") ==
        "rollout-node1-gpu1-nic rollout-fabric link-agents-rollout-1 agents2-nic");
  // Non-blocking: wider than all the pool's NICs together (40 × 50 GB/s), so it never limits.
  CHECK(figures.at("fabric_non_blocking") == 1.0);
  CHECK(figures.at("fabric_bandwidth") > 40 * 50e9);
  CHECK(figures.at("nic_non_blocking") == 0.0);
}
