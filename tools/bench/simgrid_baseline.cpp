// Bare SimGrid baselines for tools/bench/rl-scale: an exec loop (one actor, N back-to-back execs on
// one host) or a message loop (64 pairs of actors ping-ponging N small messages in all across a
// route of three links, two NICs and a shared link, as agent calls and replies cross the cluster).
// Prints the rate: the engine's cost of one exec or one message with nothing of ours around it.
// One loop per process (SimGrid allows one engine per process).
//   rlsim-bench-simgrid N [exec|messages]
#include <xbt/log.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <simgrid/s4u.hpp>
#include <string>
#include <vector>

#include "sim/platform/platform.h"

namespace sg4 = simgrid::s4u;

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double exec_loop(sg4::Engine& engine, long count) {
  auto* zone = sg4::create_full_zone("bench");
  sg4::Host* host = zone->create_host("host", 1.0);
  zone->seal();
  sg4::Actor::create("loop", host, [count]() {
    for (long i = 0; i < count; ++i) sg4::this_actor::execute(1e-3);
  });
  const auto start = std::chrono::steady_clock::now();
  engine.run();
  return seconds_since(start);
}

constexpr int kPairs = 64;

/// `rounds` round trips per pair: 2 · kPairs · rounds messages.
double message_loop(sg4::Engine& engine, long rounds) {
  auto* zone = sg4::create_full_zone("bench");
  std::vector<sg4::Host*> hosts;
  std::vector<sg4::Link*> nics;
  for (int i = 0; i < 2 * kPairs; ++i) {
    hosts.push_back(zone->create_host("host" + std::to_string(i), 1.0));
    nics.push_back(zone->create_link("nic" + std::to_string(i), 25e9)->set_latency(5e-6));
  }
  auto* shared = zone->create_link("shared", 100e9)->set_latency(10e-6);
  for (int p = 0; p < kPairs; ++p) {
    zone->add_route(
        hosts[p]->get_netpoint(), hosts[kPairs + p]->get_netpoint(), nullptr, nullptr,
        {sg4::LinkInRoute(nics[p]), sg4::LinkInRoute(shared), sg4::LinkInRoute(nics[kPairs + p])});
  }
  zone->seal();
  static int payload = 0;
  for (int p = 0; p < kPairs; ++p) {
    auto* there = sg4::Mailbox::by_name("there" + std::to_string(p));
    auto* back = sg4::Mailbox::by_name("back" + std::to_string(p));
    sg4::Actor::create("caller", hosts[p], [there, back, rounds, p]() {
      for (long i = 0; i < rounds; ++i) {
        there->put(&payload, 2048);
        back->get<int>();
        sg4::this_actor::sleep_for(1e-3 *
                                   static_cast<double>(1 + (i * 7 + p) % 13));  // staggered, as tools are
      }
    });
    sg4::Actor::create("callee", hosts[kPairs + p], [there, back, rounds]() {
      for (long i = 0; i < rounds; ++i) {
        there->get<int>();
        back->put(&payload, 8192);
      }
    });
  }
  const auto start = std::chrono::steady_clock::now();
  engine.run();
  return seconds_since(start);
}

}  // namespace

int main(int argc, char** argv) {
  const long count = argc > 1 ? std::atol(argv[1]) : 200000;
  const std::string loop = argc > 2 ? argv[2] : "exec";
  if (count <= 0 || (loop != "exec" && loop != "messages")) {
    std::fprintf(stderr, "usage: rlsim-bench-simgrid N [exec|messages]   (N > 0 activities)\n");
    return 2;
  }
  xbt_log_control_set("root.thres:critical");
  int sg_argc = 1;
  sg4::Engine engine(&sg_argc, argv);
  rlsim::configure_engine(engine);  // the simulator's network model and actor stacks
  // Messages go in round trips of every pair: N rounded down to a whole number of them (at least one).
  const long rounds = std::max(1L, count / (2 * kPairs));
  const long activities = loop == "exec" ? count : 2 * kPairs * rounds;
  const double wall = loop == "exec" ? exec_loop(engine, count) : message_loop(engine, rounds);
  std::printf("{\"loop\": \"%s\", \"activities\": %ld, \"wall_s\": %.6f, \"activities_per_s\": %.1f}\n",
              loop.c_str(), activities, wall, static_cast<double>(activities) / wall);
  return 0;
}
