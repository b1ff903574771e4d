// Each router made through the registry, fed LlmRequests directly (routers make no SimGrid calls):
// which instance it picks, how finished calls change that, and how it avoids unavailable instances.
#include <catch2/catch.hpp>
#include <random>
#include <vector>

#include "sim/engine/routers/router.h"

using namespace rlsim;

namespace {

std::unique_ptr<Router> router(const std::string& name, int instances) {
  return make_router(PluginSpec{name}, instances);
}

LlmRequest call(int trajectory, int turn = 0) {
  LlmRequest r;
  r.trajectory = trajectory;
  r.turn = turn;
  return r;
}

/// Routes `request`, records the choice in it (as the trajectory manager does) and returns it.
int route(Router& router, LlmRequest& request) {
  request.instance = router.route(request);
  return request.instance;
}

}  // namespace

TEST_CASE("the router registry holds the bundled routers, in name order") {
  CHECK(RouterRegistry::instance().names() ==
        std::vector<std::string>{"least_loaded", "prefix_aware", "round_robin"});
  CHECK_THROWS_AS(router("fastest", 2), InputError);
}

TEST_CASE("round_robin takes instances in turn whatever their load, skipping unavailable ones") {
  auto rr = router("round_robin", 3);
  std::vector<LlmRequest> calls(7);
  std::vector<int> chosen;
  for (int i = 0; i < 4; ++i) chosen.push_back(route(*rr, calls[static_cast<size_t>(i)] = call(i)));
  CHECK(chosen == std::vector<int>{0, 1, 2, 0});
  rr->on_finish(calls[1]);  // load does not matter
  rr->set_available(2, false);
  chosen.clear();
  for (int i = 4; i < 7; ++i) chosen.push_back(route(*rr, calls[static_cast<size_t>(i)] = call(i)));
  CHECK(chosen == std::vector<int>{1, 0, 1});
  // With no instance available it still answers, in turn.
  for (int i = 0; i < 3; ++i) rr->set_available(i, false);
  LlmRequest stranded = call(9);
  CHECK(route(*rr, stranded) == 2);
}

TEST_CASE("least_loaded picks the instance with the fewest calls outstanding, lowest index on ties") {
  auto ll = router("least_loaded", 3);
  std::vector<LlmRequest> calls{call(0), call(1), call(2), call(3)};
  CHECK(route(*ll, calls[0]) == 0);
  CHECK(route(*ll, calls[1]) == 1);
  CHECK(route(*ll, calls[2]) == 2);
  ll->on_finish(calls[1]);
  CHECK(route(*ll, calls[3]) == 1);  // the only instance with nothing outstanding
  ll->set_available(0, false);
  ll->on_finish(calls[0]);  // instance 0 is now the least loaded, but unavailable
  LlmRequest next = call(4);
  CHECK(route(*ll, next) == 1);
  // With none available, the call waits at the least-loaded instance.
  ll->set_available(1, false);
  ll->set_available(2, false);
  LlmRequest waiting = call(5);
  CHECK(route(*ll, waiting) == 0);
}

TEST_CASE("prefix_aware sends a trajectory's later turns home, first turns to the least loaded") {
  auto pa = router("prefix_aware", 2);
  LlmRequest a0 = call(10, 0), b0 = call(11, 0);
  CHECK(route(*pa, a0) == 0);
  CHECK(route(*pa, b0) == 1);
  pa->on_finish(b0);
  LlmRequest a1 = call(10, 1);
  CHECK(route(*pa, a1) == 0);  // home, although instance 1 is idle
  // Home unavailable: the least-loaded available instance, which becomes the new home.
  pa->set_available(0, false);
  LlmRequest a2 = call(10, 2);
  CHECK(route(*pa, a2) == 1);
  pa->set_available(0, true);
  LlmRequest a3 = call(10, 3);
  CHECK(route(*pa, a3) == 1);
}

TEST_CASE("least_loaded keeps picking as a full scan would over a long run of calls, finishes and outages") {
  // The reference: scan every instance, fewest outstanding among the available ones, lowest index on
  // ties; with none available, the same over all instances.
  const int instances = 37;
  auto ll = router("least_loaded", instances);
  std::vector<int> outstanding(instances, 0);
  std::vector<bool> up(instances, true);
  const auto scan = [&]() {
    int best = -1;
    for (int pass = 0; pass < 2 && best < 0; ++pass) {
      for (int i = 0; i < instances; ++i) {
        if (pass == 0 && !up[static_cast<size_t>(i)]) continue;
        if (best < 0 || outstanding[static_cast<size_t>(i)] < outstanding[static_cast<size_t>(best)])
          best = i;
      }
    }
    return best;
  };
  std::mt19937 random(7);
  std::vector<LlmRequest> open;
  int routed = 0;
  for (int event = 0; event < 20000; ++event) {
    const unsigned draw = random() % 10;
    if (draw < 5 || open.empty()) {
      LlmRequest request = call(routed++);
      const int expected = scan();
      REQUIRE(route(*ll, request) == expected);
      ++outstanding[static_cast<size_t>(expected)];
      open.push_back(request);
    } else if (draw < 9) {
      const size_t k = random() % open.size();
      ll->on_finish(open[k]);
      --outstanding[static_cast<size_t>(open[k].instance)];
      open[k] = open.back();
      open.pop_back();
    } else {
      const int i = static_cast<int>(random() % instances);
      // Mostly outages of a few instances; now and then all of them at once.
      const bool available = random() % 3 != 0;
      if (event % 1000 == 999) {
        for (int j = 0; j < instances; ++j) {
          ll->set_available(j, false);
          up[static_cast<size_t>(j)] = false;
        }
      } else {
        ll->set_available(i, available);
        up[static_cast<size_t>(i)] = available;
      }
    }
  }
  CHECK(routed > 9000);
}
