// Bare SimGrid baselines for tools/bench/rl-scale and cluster-scale: an exec loop (ACTORS actors,
// one host each, N back-to-back execs in all), a sleep loop (the same with sleeps: the simulator's
// timed work, sim/engine/timed_work.h) or a message loop (ACTORS / 2 pairs of actors
// ping-ponging N small messages in all across a route of three links, two NICs and a shared link, as
// agent calls and replies cross the cluster). Prints the rate: the engine's cost of one exec, sleep or
// message with nothing of ours around it, at that many actors (SimGrid's cost per activity grows
// with the endpoints in play, so a fair floor for a simulation is measured at its own actor count).
// One loop per process (SimGrid allows one engine per process).
//
// The message loop can also drive its endpoints the way an actor that serves several instances
// would: ENDPOINTS (callers and callees) shared out over actors of PER_ACTOR endpoints each, every
// endpoint a state machine over asynchronous sends, receives and timed waits. Same messages,
// mailboxes and pauses; an actor's endpoints send and receive on its host (the first of theirs),
// so fewer actors and fewer hosts carry them. It measures whether SimGrid's cost per message
// follows the actors or the endpoints in play.
//
// The flow loop (`sendto`) is the trainer's gradient ring and the weight broadcast's rounds: one
// actor starts FLOWS host-to-host transfers at once (host i to host i + 1, 1 MB each), waits for
// them all, and repeats until N have run. SimGrid 3.32 files every host-to-host transfer on one
// list that each finished transfer is looked up in, so a round costs FLOWS² / 2 steps of that walk.
//   rlsim-bench-simgrid N [exec|sleep|messages|sendto] [ACTORS]   (ACTORS: default 1 for exec and
//   sleep, 128 for messages; for sendto the flows at once, default 1,024)
//   rlsim-bench-simgrid N messages ENDPOINTS PER_ACTOR
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

/// The message loop's platform: a star zone of one host per endpoint, each route its NIC then the
/// shared link, so a pair's route is NIC, shared link, NIC.
std::vector<sg4::Host*> message_hosts(int endpoints) {
  auto* zone = sg4::create_star_zone("bench");
  std::vector<sg4::Host*> hosts;
  std::vector<sg4::Link*> nics;
  for (int i = 0; i < endpoints; ++i) {
    hosts.push_back(zone->create_host("host" + std::to_string(i), 1.0));
    nics.push_back(zone->create_link("nic" + std::to_string(i), 25e9)->set_latency(5e-6));
  }
  auto* shared = zone->create_link("shared", 100e9)->set_latency(10e-6);
  for (int i = 0; i < endpoints; ++i) {
    zone->add_route(hosts[static_cast<size_t>(i)]->get_netpoint(), nullptr, nullptr, nullptr,
                    {sg4::LinkInRoute(nics[static_cast<size_t>(i)]), sg4::LinkInRoute(shared)}, true);
  }
  zone->seal();
  return hosts;
}

int payload = 0;  ///< what every message carries (its size on the wire is set per send)

/// A caller's pause after a reply, staggered as tools are.
double think_s(long round, int pair) { return 1e-3 * static_cast<double>(1 + (round * 7 + pair) % 13); }

/// `rounds` round trips per pair, one actor per endpoint: 2 · pairs · rounds messages.
double message_loop(sg4::Engine& engine, long rounds, int pairs) {
  const std::vector<sg4::Host*> hosts = message_hosts(2 * pairs);
  for (int p = 0; p < pairs; ++p) {
    auto* there = sg4::Mailbox::by_name("there" + std::to_string(p));
    auto* back = sg4::Mailbox::by_name("back" + std::to_string(p));
    sg4::Actor::create("caller", hosts[static_cast<size_t>(p)], [there, back, rounds, p]() {
      for (long i = 0; i < rounds; ++i) {
        there->put(&payload, 2048);
        back->get<int>();
        sg4::this_actor::sleep_for(think_s(i, p));
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

/// `rounds` rounds of `flows` host-to-host transfers started together around a ring of hosts.
double flow_loop(sg4::Engine& engine, long rounds, int flows) {
  const std::vector<sg4::Host*> hosts = message_hosts(flows);
  sg4::Actor::create("ring", hosts[0], [&hosts, rounds, flows]() {
    std::vector<sg4::CommPtr> round;
    for (long r = 0; r < rounds; ++r) {
      round.clear();
      for (int i = 0; i < flows; ++i) {
        sg4::Host* to = hosts[static_cast<size_t>((i + 1) % flows)];
        round.push_back(sg4::Comm::sendto_async(hosts[static_cast<size_t>(i)], to, 1e6));  // starts now
      }
      for (auto& comm : round) comm->wait();
    }
  });
  const auto start = std::chrono::steady_clock::now();
  engine.run();
  return seconds_since(start);
}

/// One endpoint of a driven pair: a caller sends, awaits the reply, then thinks; a callee awaits
/// a call, then replies. `pending` is its send or receive in flight (null while a caller thinks).
struct Endpoint {
  int pair = 0;
  sg4::Mailbox* there = nullptr;
  sg4::Mailbox* back = nullptr;
  long round = 0;
  bool sending = true;  ///< caller: its call is in flight (else: awaiting the reply); callee: replying
  sg4::CommPtr pending;
  double wake_s = 0.0;  ///< caller thinking: when it calls again
  int* received = nullptr;
};

/// Drives `ends` (all callers or all callees) from the calling actor until each has done `rounds`.
void drive(std::vector<Endpoint>& ends, long rounds, bool callers) {
  for (Endpoint& e : ends) {
    e.pending = callers ? e.there->put_async(&payload, 2048) : e.there->get_async<int>(&e.received);
    e.sending = callers;
  }
  size_t alive = ends.size();
  std::vector<sg4::CommPtr> waiting;
  std::vector<Endpoint*> owners;
  while (alive > 0) {
    waiting.clear();
    owners.clear();
    double wake_s = -1.0;  // the earliest thinking caller's next call; none: -1
    for (Endpoint& e : ends) {
      if (e.pending) {
        waiting.push_back(e.pending);
        owners.push_back(&e);
      } else if (e.round < rounds && (wake_s < 0.0 || e.wake_s < wake_s)) {
        wake_s = e.wake_s;
      }
    }
    const double now_s = sg4::Engine::get_clock();
    ssize_t done = -1;
    if (waiting.empty()) {
      sg4::this_actor::sleep_until(wake_s);
    } else {
      done = sg4::Comm::wait_any_for(waiting, wake_s < 0.0 ? -1.0 : wake_s - now_s);
    }
    if (done >= 0) {
      Endpoint& e = *owners[static_cast<size_t>(done)];
      e.pending = nullptr;
      if (callers && e.sending) {
        e.pending = e.back->get_async<int>(&e.received);
        e.sending = false;
      } else if (callers) {
        e.wake_s = sg4::Engine::get_clock() + think_s(e.round, e.pair);
      } else if (!e.sending) {
        e.pending = e.back->put_async(&payload, 8192);
        e.sending = true;
      } else if (++e.round == rounds) {
        --alive;
      } else {
        e.pending = e.there->get_async<int>(&e.received);
        e.sending = false;
      }
    }
    // Callers whose thinking is over end their round and call again. A timeout lands within rounding
    // of the wake-up it was computed for, hence the nanosecond of slack.
    for (Endpoint& e : ends) {
      if (!callers || e.pending || e.round == rounds || e.wake_s > sg4::Engine::get_clock() + 1e-9) continue;
      if (++e.round == rounds) {
        --alive;
      } else {
        e.pending = e.there->put_async(&payload, 2048);
        e.sending = true;
      }
    }
  }
}

/// The message loop with `per_actor` callers (or callees) driven by each actor: the same messages,
/// routes and pauses as message_loop, over fewer actors.
double driven_message_loop(sg4::Engine& engine, long rounds, int pairs, int per_actor) {
  const std::vector<sg4::Host*> hosts = message_hosts(2 * pairs);
  for (int first = 0; first < pairs; first += per_actor) {
    for (const bool callers : {true, false}) {
      std::vector<Endpoint> ends;
      for (int p = first; p < std::min(pairs, first + per_actor); ++p) {
        Endpoint& e = ends.emplace_back();
        e.pair = p;
        e.there = sg4::Mailbox::by_name("there" + std::to_string(p));
        e.back = sg4::Mailbox::by_name("back" + std::to_string(p));
      }
      sg4::Host* host = hosts[static_cast<size_t>(callers ? first : pairs + first)];
      sg4::Actor::create(callers ? "callers" : "callees", host,
                         [ends, rounds, callers]() mutable { drive(ends, rounds, callers); });
    }
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
  const bool flows = loop == "sendto";
  // messages: endpoints; sendto: flows at once
  const long actors = argc > 3 ? std::atol(argv[3]) : (work ? 1 : flows ? 1024 : 128);
  const long per_actor = argc > 4 ? std::atol(argv[4]) : 1;
  if (count <= 0 || (!work && !flows && loop != "messages") || actors < (work ? 1 : 2) || actors > 1 << 22 ||
      per_actor < 1 || per_actor > actors || ((work || flows) && argc > 4)) {
    std::fprintf(
        stderr,
        "usage: rlsim-bench-simgrid N [exec|sleep|messages|sendto] [ACTORS]   (N > 0 activities; ACTORS "
        "from 1 for exec and sleep, 2 for messages and sendto (its flows at once), to 4194304)\n"
        "       rlsim-bench-simgrid N messages ENDPOINTS PER_ACTOR   (PER_ACTOR callers or callees "
        "driven by each actor, 1 to ENDPOINTS)\n");
    return 2;
  }
  xbt_log_control_set("root.thres:critical");
  int sg_argc = 1;
  sg4::Engine engine(&sg_argc, argv);
  rlsim::configure_engine(engine);  // the simulator's network model and actor stacks
  // Messages go in round trips of every pair: N rounded down to a whole number of them (at least one).
  const int pairs = static_cast<int>(actors / 2);
  // Flows go in rounds of ACTORS: N rounded down to a whole number of them (at least one).
  const long rounds = std::max(1L, flows ? count / actors : count / (2L * pairs));
  const long activities = work ? count : flows ? actors * rounds : 2L * pairs * rounds;
  const int driven = static_cast<int>(std::min<long>(per_actor, pairs));
  double wall = 0.0;
  if (work) {
    wall = work_loop(engine, count, static_cast<int>(actors), loop == "sleep");
  } else if (flows) {
    wall = flow_loop(engine, rounds, static_cast<int>(actors));
  } else if (per_actor == 1) {
    wall = message_loop(engine, rounds, pairs);
  } else {
    wall = driven_message_loop(engine, rounds, pairs, driven);
  }
  const long endpoints = work || flows ? actors : 2L * pairs;
  const long actors_run = flows                    ? 1
                          : work || per_actor == 1 ? endpoints
                                                   : 2L * ((pairs + driven - 1) / driven);
  std::printf(
      "{\"loop\": \"%s\", \"actors\": %ld, \"endpoints\": %ld, \"activities\": %ld, \"wall_s\": %.6f, "
      "\"activities_per_s\": %.1f, \"simulated_s\": %.6f}\n",
      loop.c_str(), actors_run, endpoints, activities, wall, static_cast<double>(activities) / wall,
      sg4::Engine::get_clock());
  return 0;
}
