// Bare SimGrid baselines for tools/bench/rl-scale and cluster-scale: an exec loop (ACTORS actors,
// one host each, N back-to-back execs in all), a sleep loop (the same with sleeps: the simulator's
// timed work, sim/engine/timed_work.h) or a message loop (ACTORS / 2 pairs of actors
// ping-ponging N small messages in all across a route of three links, two NICs and a shared link, as
// agent calls and replies cross the cluster). Prints the rate: the engine's cost of one exec, sleep or
// message with nothing of ours around it, at that many actors (SimGrid's cost per activity grows
// with the actors alive, so a fair floor for a simulation is measured at its own actor count).
// One loop per process (SimGrid allows one engine per process).
//   rlsim-bench-simgrid N [exec|sleep|messages] [ACTORS]   (ACTORS: default 1 for exec and sleep, 128 for
//   messages)
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

/// `count` back-to-back execs (`sleep` false) or sleeps of 1 ms, shared out over `actors` actors.
double work_loop(sg4::Engine& engine, long count, int actors, bool sleep) {
  auto* zone = sg4::create_star_zone("bench");
  std::vector<sg4::Host*> hosts;
  for (int a = 0; a < actors; ++a) hosts.push_back(zone->create_host("host" + std::to_string(a), 1.0));
  zone->seal();
  for (int a = 0; a < actors; ++a) {
    const long execs = count / actors + (a < count % actors ? 1 : 0);
    sg4::Actor::create("loop", hosts[static_cast<size_t>(a)], [execs, sleep]() {
      for (long i = 0; i < execs; ++i) {
        if (sleep)
          sg4::this_actor::sleep_for(1e-3);
        else
          sg4::this_actor::execute(1e-3);
      }
    });
  }
  const auto start = std::chrono::steady_clock::now();
  engine.run();
  return seconds_since(start);
}

/// `rounds` round trips per pair: 2 · pairs · rounds messages. A star zone: one route per host
/// (its NIC, then the shared link), so a pair's route is NIC, shared link, NIC.
double message_loop(sg4::Engine& engine, long rounds, int pairs) {
  auto* zone = sg4::create_star_zone("bench");
  std::vector<sg4::Host*> hosts;
  std::vector<sg4::Link*> nics;
  for (int i = 0; i < 2 * pairs; ++i) {
    hosts.push_back(zone->create_host("host" + std::to_string(i), 1.0));
    nics.push_back(zone->create_link("nic" + std::to_string(i), 25e9)->set_latency(5e-6));
  }
  auto* shared = zone->create_link("shared", 100e9)->set_latency(10e-6);
  for (int i = 0; i < 2 * pairs; ++i) {
    zone->add_route(hosts[static_cast<size_t>(i)]->get_netpoint(), nullptr, nullptr, nullptr,
                    {sg4::LinkInRoute(nics[static_cast<size_t>(i)]), sg4::LinkInRoute(shared)}, true);
  }
  zone->seal();
  static int payload = 0;
  for (int p = 0; p < pairs; ++p) {
    auto* there = sg4::Mailbox::by_name("there" + std::to_string(p));
    auto* back = sg4::Mailbox::by_name("back" + std::to_string(p));
    sg4::Actor::create("caller", hosts[static_cast<size_t>(p)], [there, back, rounds, p]() {
      for (long i = 0; i < rounds; ++i) {
        there->put(&payload, 2048);
        back->get<int>();
        sg4::this_actor::sleep_for(1e-3 *
                                   static_cast<double>(1 + (i * 7 + p) % 13));  // staggered, as tools are
      }
    });
    sg4::Actor::create("callee", hosts[static_cast<size_t>(pairs + p)], [there, back, rounds]() {
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
  const bool work = loop == "exec" || loop == "sleep";
  const long actors = argc > 3 ? std::atol(argv[3]) : (work ? 1 : 128);
  if (count <= 0 || (!work && loop != "messages") || actors < (work ? 1 : 2) || actors > 1 << 22) {
    std::fprintf(
        stderr,
        "usage: rlsim-bench-simgrid N [exec|sleep|messages] [ACTORS]   (N > 0 activities; ACTORS from "
        "1 for exec and sleep, 2 for messages, to 4194304)\n");
    return 2;
  }
  xbt_log_control_set("root.thres:critical");
  int sg_argc = 1;
  sg4::Engine engine(&sg_argc, argv);
  rlsim::configure_engine(engine);  // the simulator's network model and actor stacks
  // Messages go in round trips of every pair: N rounded down to a whole number of them (at least one).
  const int pairs = static_cast<int>(actors / 2);
  const long rounds = std::max(1L, count / (2L * pairs));
  const long activities = work ? count : 2L * pairs * rounds;
  const double wall = work ? work_loop(engine, count, static_cast<int>(actors), loop == "sleep")
                           : message_loop(engine, rounds, pairs);
  std::printf(
      "{\"loop\": \"%s\", \"actors\": %ld, \"activities\": %ld, \"wall_s\": %.6f, "
      "\"activities_per_s\": %.1f}\n",
      loop.c_str(), work ? actors : 2L * pairs, activities, wall, static_cast<double>(activities) / wall);
  return 0;
}
