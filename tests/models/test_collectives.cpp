// Alpha-beta collective formulas against hand-computed values.
#include <catch2/catch.hpp>

#include "models/timing/collectives.h"

using namespace rlsim;
using Catch::Matchers::WithinRel;

namespace {
const LinkSpec nvlink{450e9, 2e-6};
}

TEST_CASE("ring all-reduce is 2(p-1) latencies plus 2(p-1)/p of the buffer over the link", "[collectives]") {
  const double bytes = 1e9;
  CHECK_THAT(all_reduce_seconds(bytes, 8, nvlink), WithinRel(14 * 2e-6 + 2.0 * 7 / 8 * bytes / 450e9, 1e-12));
  CHECK(all_reduce_seconds(bytes, 1, nvlink) == 0.0);
}

TEST_CASE("tree all-reduce wins on latency for small messages at many ranks", "[collectives]") {
  const double small = 1024;
  CHECK(all_reduce_seconds(small, 64, nvlink, CollectiveAlgorithm::tree) <
        all_reduce_seconds(small, 64, nvlink, CollectiveAlgorithm::ring));
  CHECK_THAT(all_reduce_seconds(small, 64, nvlink, CollectiveAlgorithm::tree),
             WithinRel(2 * 6 * 2e-6 + 2 * small / 450e9, 1e-12));
  const double large = 1e10;
  CHECK(all_reduce_seconds(large, 64, nvlink, CollectiveAlgorithm::ring) <
        all_reduce_seconds(large, 64, nvlink, CollectiveAlgorithm::tree));
}

TEST_CASE("all-gather and reduce-scatter move (p-1)/p of the buffer", "[collectives]") {
  CHECK_THAT(all_gather_seconds(8e9, 4, nvlink), WithinRel(3 * 2e-6 + 0.75 * 8e9 / 450e9, 1e-12));
  CHECK(reduce_scatter_seconds(8e9, 4, nvlink) == all_gather_seconds(8e9, 4, nvlink));
  // A ring all-reduce is a reduce-scatter followed by an all-gather.
  CHECK_THAT(all_reduce_seconds(8e9, 4, nvlink),
             WithinRel(reduce_scatter_seconds(8e9, 4, nvlink) + all_gather_seconds(8e9, 4, nvlink), 1e-12));
}

TEST_CASE("all-to-all and broadcast", "[collectives]") {
  const LinkSpec nic{50e9, 5e-6};
  CHECK_THAT(all_to_all_seconds(1e8, 16, nic), WithinRel(15 * 5e-6 + 15.0 / 16 * 1e8 / 50e9, 1e-12));
  CHECK_THAT(broadcast_seconds(1e9, 8, nic), WithinRel(7 * 5e-6 + 1e9 / 50e9, 1e-12));
  CHECK_THAT(broadcast_seconds(1e9, 8, nic, CollectiveAlgorithm::tree),
             WithinRel(3 * (5e-6 + 1e9 / 50e9), 1e-12));
  CHECK(broadcast_seconds(1e9, 1, nic) == 0.0);
}
