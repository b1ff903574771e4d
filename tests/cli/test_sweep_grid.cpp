// The sweep grid in process: axes from `--param` lists and ranges, their errors with the messages a
// user sees, the product's point numbering (first axis slowest) and `--shard I/N` slices.
#include <catch2/catch.hpp>

#include "tools/sweep/sweep_grid.h"

using namespace rlsim;

namespace {

/// The message (with its location) of the InputError `body` throws, or "no error".
template <class Body>
std::string error_of(Body body) {
  try {
    body();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("sweep axes: lists keep their text, ranges include hi when on the step") {
  CHECK(parse_sweep_param("cluster.pools.ffn.gpu=H20,H800").values ==
        std::vector<std::string>{"H20", "H800"});
  CHECK(parse_sweep_param("afd.batch=512:2048:512").values ==
        std::vector<std::string>{"512", "1024", "1536", "2048"});
  CHECK(parse_sweep_param("afd.batch=512:2000:512").values ==
        std::vector<std::string>{"512", "1024", "1536"});
  CHECK(parse_sweep_param("x=0.5:1.5:0.5").values == std::vector<std::string>{"0.5", "1", "1.5"});
  CHECK(parse_sweep_param("x=0.1:0.3:0.1").values == std::vector<std::string>{"0.1", "0.2", "0.3"});
  CHECK(parse_sweep_param("x=7:7:1").values == std::vector<std::string>{"7"});
  const SweepAxis axis = parse_sweep_param("cluster.nic.bandwidth=200Gbps,100Gbps");
  CHECK(axis.path == "cluster.nic.bandwidth");
  CHECK(parse_sweep_axis("a.b", "1,2", {"scenario.yaml", 3, 4}).values.size() == 2);
}

TEST_CASE("sweep axes: a value may be a YAML mapping or list, its commas and colons its own") {
  CHECK(parse_sweep_param("workload.output_tokens=500,{uniform: {min: 500, max: 525}}").values ==
        std::vector<std::string>{"500", "{uniform: {min: 500, max: 525}}"});
  // Three colon-separated parts inside a mapping are not a range.
  CHECK(parse_sweep_param("x={a: {b: 1}},{a: {b: 2}}").values ==
        std::vector<std::string>{"{a: {b: 1}}", "{a: {b: 2}}"});
  CHECK(parse_sweep_param("x=[1, 2],[3]").values == std::vector<std::string>{"[1, 2]", "[3]"});
  CHECK(error_of([] { parse_sweep_param("x={a: 1},"); }) ==
        "--param x={a: 1},:1:1: error: empty value in '{a: 1},' for sweep parameter 'x'");
}

TEST_CASE("sweep axis errors name the argument and what is wrong") {
  CHECK(error_of([] { parse_sweep_param("afd.batch"); }) ==
        "--param afd.batch:1:1: error: expected --param path.to.field=v1,v2,… or =lo:hi:step");
  CHECK(error_of([] { parse_sweep_param("=1,2"); }) ==
        "--param =1,2:1:1: error: a sweep parameter needs a field path before '='");
  CHECK(error_of([] { parse_sweep_param("x=1,,2"); }) ==
        "--param x=1,,2:1:1: error: empty value in '1,,2' for sweep parameter 'x'");
  CHECK(error_of([] { parse_sweep_param("x=1,"); }) ==
        "--param x=1,:1:1: error: empty value in '1,' for sweep parameter 'x'");
  CHECK(error_of([] { parse_sweep_param("x="); }) ==
        "--param x=:1:1: error: sweep parameter 'x' has no values");
  CHECK(error_of([] { parse_sweep_param("x=1:0:1"); }) ==
        "--param x=1:0:1:1:1: error: a range needs lo ≤ hi and a positive step, found '1:0:1'");
  CHECK(error_of([] { parse_sweep_param("x=0:4:0"); }) ==
        "--param x=0:4:0:1:1: error: a range needs lo ≤ hi and a positive step, found '0:4:0'");
  CHECK(error_of([] { parse_sweep_param("x=a:4:1"); }) ==
        "--param x=a:4:1:1:1: error: a range is lo:hi:step with numbers, found 'a:4:1'");
  CHECK(error_of([] { parse_sweep_param("x=0:1e9:1"); }) ==
        "--param x=0:1e9:1:1:1: error: the range '0:1e9:1' has too many values");
  CHECK(error_of([] {
          parse_sweep_axis("y", "1,,2", {"s.yaml (sweep.params.y)", 0, 0});
        }) == "s.yaml (sweep.params.y): error: empty value in '1,,2' for sweep parameter 'y'");
}

TEST_CASE("the grid numbers the product with the first axis varying slowest") {
  const SweepGrid grid({parse_sweep_param("a=1,2"), parse_sweep_param("b=x,y,z")});
  REQUIRE(grid.size() == 6);
  CHECK(grid.values(0) == std::vector<std::string>{"1", "x"});
  CHECK(grid.values(1) == std::vector<std::string>{"1", "y"});
  CHECK(grid.values(3) == std::vector<std::string>{"2", "x"});
  CHECK(grid.values(5) == std::vector<std::string>{"2", "z"});
  CHECK(grid.assignments(4) == std::vector<std::string>{"a=2", "b=y"});
  CHECK(SweepGrid({}).size() == 1);  // no axis: the scenario itself
}

TEST_CASE("a grid over ten million points is refused") {
  std::vector<SweepAxis> axes(3, parse_sweep_param("x=1:1000:1"));
  axes[1].path = "y";
  axes[2].path = "z";
  CHECK(error_of([&] { SweepGrid grid(axes); }) ==
        "--param z:1:1: error: the sweep grid has more than 10000000 points");
}

TEST_CASE("a shard I/N takes the points whose number is I-1 mod N") {
  const SweepShard shard = parse_sweep_shard("2/3");
  CHECK(shard.index == 2);
  CHECK(shard.count == 3);
  std::vector<long> mine;
  for (long point = 0; point < 8; ++point) {
    if (shard.holds(point)) mine.push_back(point);
  }
  CHECK(mine == std::vector<long>{1, 4, 7});
  CHECK(SweepShard{}.holds(5));
  CHECK(error_of([] { parse_sweep_shard("4/3"); }) ==
        "--shard 4/3:1:1: error: --shard I/N needs 1 ≤ I ≤ N, found 4/3");
  CHECK(error_of([] { parse_sweep_shard("0/3"); }) ==
        "--shard 0/3:1:1: error: --shard I/N needs 1 ≤ I ≤ N, found 0/3");
  for (const char* bad : {"3", "a/b", "1/2x", "/2", "1/"}) {
    CHECK(error_of([&] { parse_sweep_shard(bad); }) ==
          "--shard " + std::string(bad) + ":1:1: error: expected --shard I/N, e.g. --shard 2/8");
  }
}
