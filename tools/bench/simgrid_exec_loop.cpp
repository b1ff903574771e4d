// A bare SimGrid baseline for tools/bench/rl-scale: one actor running N back-to-back execs on one
// host. Prints activities per wall second, the rate our engine's activities are compared with.
#include <simgrid/s4u.hpp>
#include <xbt/log.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace sg4 = simgrid::s4u;

int main(int argc, char** argv) {
  const long count = argc > 1 ? std::atol(argv[1]) : 200000;
  xbt_log_control_set("root.thres:critical");
  int sg_argc = 1;
  sg4::Engine engine(&sg_argc, argv);
  auto* zone = sg4::create_full_zone("bench");
  sg4::Host* host = zone->create_host("host", 1.0);
  zone->seal();
  sg4::Actor::create("loop", host, [count]() {
    for (long i = 0; i < count; ++i) sg4::this_actor::execute(1e-3);
  });
  const auto start = std::chrono::steady_clock::now();
  engine.run();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("{\"activities\": %ld, \"wall_s\": %.6f, \"activities_per_s\": %.1f}\n", count, wall, count / wall);
  return 0;
}
