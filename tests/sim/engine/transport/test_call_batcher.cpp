// CallBatcher: calls an agent host sends at one simulated instant to one destination travel as one
// transfer of their summed bytes, in the order they were sent, and arrive when a lone transfer of
// that size would; a call sent later at another instant travels on its own.
#include <catch2/catch.hpp>
#include <simgrid/s4u.hpp>

#include "sim/engine/transport/call_batcher.h"
#include "sim/platform/platform.h"
#include "sim/platform/topology.h"
#include "tests/sim/engine/transport/transport_cluster.h"
#include "tests/sim/sim_test_support.h"

namespace sg4 = simgrid::s4u;
using namespace rlsim;

namespace {

constexpr double kCallBytes = 1e6;

}  // namespace

TEST_CASE("calls an agent host sends at one instant to one instance travel as one transfer, in order") {
  LoadedScenario loaded = test::load_inline("agents-and-rollout", test::kTransportCluster);
  const ClusterSpec& cluster = loaded.scenario.cluster;
  const test::Figures figures = test::figures_in_child([&]() {
    const auto engine = make_engine({});
    Topology topology(cluster);
    Platform platform = build_platform(cluster, topology);
    sg4::Host* agent_host = platform.agent_hosts[0];
    sg4::Host* gpu = platform.pool("rollout").gpus[3];
    sg4::Mailbox* instance = sg4::Mailbox::by_name("instance");
    std::vector<LlmRequest> calls(4);
    for (size_t i = 0; i < calls.size(); ++i) calls[i].trajectory = static_cast<int>(i);
    test::Figures out;
    std::vector<double> arrivals, sizes, order;
    sg4::Actor::create("instance", gpu, [&]() {
      for (int received = 0; received < 4;) {
        auto* batch = instance->get<CallBatch>();
        arrivals.push_back(sg4::Engine::get_clock());
        sizes.push_back(static_cast<double>(batch->size()));
        for (LlmRequest* call : *batch) order.push_back(call->trajectory);
        received += static_cast<int>(batch->size());
        delete batch;
      }
    });
    sg4::Actor::create("launcher", agent_host, [&]() {
      auto batcher = std::make_shared<CallBatcher>(agent_host, [](sg4::Mailbox*, CallBatch batch) -> void* {
        return new CallBatch(std::move(batch));
      });
      // Three agents created one after the other, as the orchestrator launches trajectories: each
      // runs in its own scheduling round, all at t = 0. A fourth sends at t = 1 s.
      for (size_t i = 0; i < 3; ++i) {
        sg4::Actor::create("agent", agent_host,
                           [&, i, batcher]() { batcher->send(instance, &calls[i], kCallBytes); });
      }
      sg4::Actor::create("late-agent", agent_host, [&, batcher]() {
        sg4::this_actor::sleep_for(1.0);
        batcher->send(instance, &calls[3], kCallBytes);
        batcher->close();
      });
      batcher->actor()->join();
    });
    engine->run();
    std::vector<sg4::Link*> links;
    double latency = 0.0;
    agent_host->route_to(gpu, links, &latency);
    double narrowest = links.front()->get_bandwidth();
    for (const auto* link : links) narrowest = std::min(narrowest, link->get_bandwidth());
    out.set_list("arrivals", arrivals);
    out.set_list("sizes", sizes);
    out.set_list("order", order);
    out.set("latency", latency);
    out.set("narrowest", narrowest);
    return out;
  });
  const double latency = figures.at("latency");
  const double narrowest = figures.at("narrowest");
  CHECK(narrowest == Approx(8e9 / 8));  // the agents link
  CHECK(figures.list("sizes") == std::vector<double>{3, 1});
  CHECK(figures.list("order") == std::vector<double>{0, 1, 2, 3});
  const std::vector<double> arrivals = figures.list("arrivals");
  REQUIRE(arrivals.size() == 2);
  // One transfer of the three calls' bytes: Σ latency + 3 MB / 1 GB/s, not 1 MB's worth for the first.
  CHECK(arrivals[0] == Approx(latency + 3 * kCallBytes / narrowest).epsilon(1e-9));
  CHECK(arrivals[1] == Approx(1.0 + latency + kCallBytes / narrowest).epsilon(1e-9));
}
