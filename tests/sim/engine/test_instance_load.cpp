// Decode batch occupancy and KV use of RL rollout instances (sim/engine/instance_load.h): over the
// time each instance generates, averaged over instances, against figures worked by hand.
#include <catch2/catch.hpp>

#include "sim/engine/instance_load.h"

using namespace rlsim;
using Catch::Matchers::WithinAbs;

TEST_CASE("rollout load: occupancy and KV use over the time generating, idle time left out", "[load]") {
  // Instance 0 (max_batch 4, 1000 KV slots): 4 running holding 800 slots for 2 s, idle (0 running)
  // for 6 s, then 2 running holding 200 slots for 2 s until the end at 10 s.
  InstanceLoad a{{{0.0, 4, 0, 800.0}, {2.0, 0, 0, 0.0}, {8.0, 2, 0, 200.0}}, 4, 1000.0};
  // Instance 1 (max_batch 8, 2000 slots): 1 running holding 500 slots from 5 s; nothing before.
  InstanceLoad b{{{5.0, 1, 3, 500.0}}, 8, 2000.0};
  // Instance 2 never generated: left out of the averages.
  InstanceLoad idle{{{0.0, 0, 0, 0.0}}, 8, 2000.0};
  const LoadFigures f = generating_load_figures({a, b, idle}, 0.0, 10.0);
  // a: (4·2 + 2·2) / 4 s generating = 3 running -> 0.75; KV (800·2 + 200·2) / 4 / 1000 = 0.5.
  // b: 1 running -> 0.125; KV 0.25.
  CHECK_THAT(f.batch_occupancy, WithinAbs((0.75 + 0.125) / 2, 1e-12));
  CHECK_THAT(f.kv_use_mean, WithinAbs((0.5 + 0.25) / 2, 1e-12));
  CHECK_THAT(f.kv_use_max, WithinAbs(0.8, 1e-12));
}

TEST_CASE("rollout load: a run that never generated reports zeros", "[load]") {
  const LoadFigures f = generating_load_figures({InstanceLoad{{}, 4, 100.0}}, 0.0, 10.0);
  CHECK(f.batch_occupancy == 0.0);
  CHECK(f.kv_use_mean == 0.0);
  CHECK(f.kv_use_max == 0.0);
}
