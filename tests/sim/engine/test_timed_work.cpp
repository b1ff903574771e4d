// Timed work (sim/engine/timed_work.h): a GPU's work that no other activity shares its host with
// ends when an exec of the same length on a lone host of speed 1 would, exactly; a wait for work
// with an interrupt ends at the interrupt when it comes first and at the work's end otherwise, and
// returns at once when there is no work; and every timed work is counted.
#include <catch2/catch.hpp>
#include <simgrid/s4u.hpp>

#include "sim/engine/timed_work.h"
#include "sim/platform/platform.h"
#include "sim/platform/topology.h"
#include "tests/sim/sim_test_support.h"

namespace sg4 = simgrid::s4u;
using namespace rlsim;

namespace {

const char* kOneNode = R"(
model: qwen3-8b
cluster:
  pools:
    - {name: rollout, gpu: H20, nodes: 1, gpus_per_node: 8}
  links:
    - {between: [agents, rollout], bandwidth: 100Gbps}
    - {between: [dataplane, rollout], bandwidth: 100Gbps}
workload: {prompts_per_step: 1}
)";

/// Runs `body` as an actor on GPU 0 of a one-node platform, a sender on GPU 1 putting a small
/// message to mailbox "interrupt" at `send_at_s` (never when negative); returns the figures `body`
/// sets.
test::Figures on_one_node(double send_at_s, const std::function<void(test::Figures&, sg4::CommPtr)>& body) {
  LoadedScenario loaded = test::load_inline("one-node", kOneNode);
  const ClusterSpec& cluster = loaded.scenario.cluster;
  return test::figures_in_child([&]() {
    const auto engine = make_engine({});
    Topology topology(cluster);
    Platform platform = build_platform(cluster, topology);
    const auto& gpus = platform.pool("rollout").gpus;
    sg4::Mailbox* mailbox = sg4::Mailbox::by_name("interrupt");
    static int payload = 0;
    test::Figures out;
    const long counted_before = timed_work::started();
    int* received = nullptr;
    sg4::Actor::create("worker", gpus[0], [&]() {
      sg4::CommPtr interrupt = mailbox->get_async<int>(&received);
      body(out, interrupt);
      if (send_at_s >= 0.0) interrupt->wait();
    });
    if (send_at_s >= 0.0) {
      sg4::Actor::create("sender", gpus[1], [&]() {
        sg4::this_actor::sleep_for(send_at_s);
        mailbox->put(&payload, 8);
      });
    }
    engine->run();
    out.set("counted", static_cast<double>(timed_work::started() - counted_before));
    return out;
  });
}

}  // namespace

TEST_CASE("timed work ends exactly when an exec of its length on a lone host would") {
  const test::Figures figures = on_one_node(-1.0, [](test::Figures& out, const sg4::CommPtr&) {
    const double seconds = 0.1 + 1.0 / 3.0;  // not a round number of anything
    timed_work::run(seconds);
    out.set("after_work", sg4::Engine::get_clock());
    sg4::this_actor::execute(seconds);  // the same work as an exec, on the same (idle) host
    out.set("after_exec", sg4::Engine::get_clock());
    out.set("seconds", seconds);
  });
  const double seconds = figures.at("seconds");
  CHECK(figures.at("after_work") == seconds);
  CHECK(figures.at("after_exec") - figures.at("after_work") == Approx(seconds).epsilon(1e-12));
  CHECK(figures.at("counted") == 1.0);
}

TEST_CASE("timed work with an interrupt ends at the interrupt when it comes first") {
  const test::Figures figures = on_one_node(1.0, [](test::Figures& out, const sg4::CommPtr& interrupt) {
    out.set("interrupted", timed_work::run_unless(5.0, interrupt) ? 1.0 : 0.0);
    out.set("at", sg4::Engine::get_clock());
  });
  CHECK(figures.at("interrupted") == 1.0);
  CHECK(figures.at("at") > 1.0);   // the message's latency after it was sent
  CHECK(figures.at("at") < 1.01);  // long before the work's 5 s
  CHECK(figures.at("counted") == 1.0);
}

TEST_CASE("timed work with an interrupt that comes later runs to its end") {
  const test::Figures figures = on_one_node(1.0, [](test::Figures& out, const sg4::CommPtr& interrupt) {
    out.set("interrupted", timed_work::run_unless(0.5, interrupt) ? 1.0 : 0.0);
    out.set("at", sg4::Engine::get_clock());
    timed_work::run(0.25);
  });
  CHECK(figures.at("interrupted") == 0.0);
  CHECK(figures.at("at") == 0.5);
  CHECK(figures.at("counted") == 2.0);
}

TEST_CASE("timed work of no length with an interrupt returns at once, not interrupted") {
  const test::Figures figures = on_one_node(-1.0, [](test::Figures& out, const sg4::CommPtr& interrupt) {
    out.set("zero", timed_work::run_unless(0.0, interrupt) ? 1.0 : 0.0);
    out.set("negative", timed_work::run_unless(-1e-9, interrupt) ? 1.0 : 0.0);
    out.set("at", sg4::Engine::get_clock());
    interrupt->cancel();  // nobody sends: the receive is taken back so the run can end
  });
  CHECK(figures.at("zero") == 0.0);
  CHECK(figures.at("negative") == 0.0);
  CHECK(figures.at("at") == 0.0);  // a negative timeout would have waited for ever (deadlock)
  CHECK(figures.at("counted") == 0.0);
}
