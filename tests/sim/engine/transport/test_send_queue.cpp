// SendQueue: messages queued at one instant leave at that instant, each as a lone put by the sender
// would, empty ones included (a weight update or a stop to every instance), and the queue's
// finished sends are retired without holding the next ones up.
#include <algorithm>
#include <catch2/catch.hpp>
#include <simgrid/s4u.hpp>

#include "sim/engine/transport/send_queue.h"
#include "sim/platform/platform.h"
#include "sim/platform/topology.h"
#include "tests/sim/engine/transport/transport_cluster.h"
#include "tests/sim/sim_test_support.h"

namespace sg4 = simgrid::s4u;
using namespace rlsim;

namespace {

/// Arrival times at eight receivers (permanent ones, as instances are) of one message each,
/// queued at t = 0 on one queue of the data-plane host, then of a second round at t = 1 s.
test::Figures arrivals_of(uint64_t bytes) {
  LoadedScenario loaded = test::load_inline("dataplane-and-rollout", test::kTransportCluster);
  const ClusterSpec cluster = loaded.scenario.cluster;
  return test::figures_in_child([&]() {
    const auto engine = make_engine({});
    Topology topology(cluster);
    Platform platform = build_platform(cluster, topology);
    const std::vector<sg4::Host*>& gpus = platform.pool("rollout").gpus;
    std::vector<double> arrivals;
    int payload = 0;
    for (size_t i = 0; i < gpus.size(); ++i) {
      sg4::Actor::create("receiver", gpus[i], [&, i]() {
        sg4::Mailbox* inbox = sg4::Mailbox::by_name("inbox-" + std::to_string(i));
        inbox->set_receiver(sg4::Actor::self());
        for (int round = 0; round < 2; ++round) {
          inbox->get<int>();
          arrivals.push_back(sg4::Engine::get_clock());
        }
        inbox->set_receiver(nullptr);
      });
    }
    sg4::Actor::create("sender", platform.dataplane, [&]() {
      SendQueue queue(platform.dataplane);
      for (int round = 0; round < 2; ++round) {
        sg4::this_actor::sleep_until(round);
        for (size_t i = 0; i < gpus.size(); ++i)
          queue.send(sg4::Mailbox::by_name("inbox-" + std::to_string(i)), &payload, bytes);
      }
      queue.close();
      sg4::this_actor::sleep_for(2.0);  // the queue's actor uses it until it has sent everything
    });
    engine->run();
    std::vector<sg4::Link*> links;
    double latency = 0.0;
    platform.dataplane->route_to(gpus[0], links, &latency);
    test::Figures out;
    out.set_list("arrivals", arrivals);
    out.set("latency", latency);
    return out;
  });
}

}  // namespace

TEST_CASE("empty messages queued at one instant all arrive one latency later") {
  const test::Figures figures = arrivals_of(0);
  const double latency = figures.at("latency");
  REQUIRE(latency > 0.0);
  const std::vector<double> arrivals = figures.list("arrivals");
  REQUIRE(arrivals.size() == 16);
  // Each arrives after the route's latency; none waits for the one queued before it to land
  // (retiring an empty send still in transit used to block the queue for a latency per message).
  for (double at : arrivals)
    CHECK((at == Approx(latency).epsilon(1e-9) || at == Approx(1.0 + latency).epsilon(1e-9)));
  CHECK(std::count_if(arrivals.begin(), arrivals.end(), [&](double at) { return at < 1.0; }) == 8);
}

TEST_CASE("messages with bytes queued at one instant leave together and share the route") {
  const uint64_t bytes = 1000000;
  const test::Figures figures = arrivals_of(bytes);
  const std::vector<double> arrivals = figures.list("arrivals");
  REQUIRE(arrivals.size() == 16);
  // Eight 1 MB transfers start together and share the data-plane host's 100 Gb/s link: they all
  // end at once, later than a lone one would, and the second round does the same at 1 s.
  const double first = *std::min_element(arrivals.begin(), arrivals.begin() + 8);
  for (size_t k = 0; k < 8; ++k) CHECK(arrivals[k] == Approx(first).epsilon(1e-9));
  CHECK(first > figures.at("latency") + 8 * bytes / (100e9 / 8) * 0.99);
  for (size_t k = 8; k < 16; ++k) CHECK(arrivals[k] == Approx(1.0 + first).epsilon(1e-9));
}
