// A scenario's catalog row that names a built-in card changes only the fields it gives: a price,
// a NIC; the rest stays the datasheet's. A row naming a new card must give them all.
#include <catch2/catch.hpp>
#include <fstream>

#include "tests/sim/sim_test_support.h"

using namespace rlsim;
using namespace rlsim::test;

TEST_CASE("a catalog row naming a built-in card patches only the fields it gives") {
  const std::string catalog = write_scenario(
      "cheap-h20-catalog", "hardware:\n  - {name: H20, usd_per_hour: 1.2, nic_bandwidth: 25GBps}\n");
  const Scenario plain = load_inline("patch-plain", kTwoPools).scenario;
  const Scenario patched =
      load_inline("patch", std::string(kTwoPools) + "catalog: [" + catalog + "]\n").scenario;
  const HardwareSpec& before = plain.cluster.pool("rollout")->card;
  const HardwareSpec& after = patched.cluster.pool("rollout")->card;
  CHECK(after.usd_per_hour == 1.2);
  CHECK(after.nic_bw_bytes_per_s == 25e9);
  CHECK(before.usd_per_hour != 1.2);
  CHECK(after.mem_bw_bytes_per_s == before.mem_bw_bytes_per_s);
  CHECK(after.peak_flops == before.peak_flops);
  CHECK(after.mem_capacity_bytes == before.mem_capacity_bytes);
  // The train pool's H800 is untouched.
  CHECK(patched.cluster.pool("train")->card.usd_per_hour == plain.cluster.pool("train")->card.usd_per_hour);

  const std::string unknown =
      write_scenario("new-card-catalog", "hardware:\n  - {name: X1, usd_per_hour: 1.2}\n");
  const InputError e = load_error(std::string(kTwoPools) + "catalog: [" + unknown + "]\n");
  CHECK_THAT(e.what(), Catch::Contains("new-card-catalog.yaml:2") && Catch::Contains("peak"));
}

TEST_CASE("a pool's usd_per_hour prices its GPUs without touching the catalog") {
  const Scenario s =
      load_inline("pool-price", kTwoPools, {"cluster.pools.rollout.usd_per_hour=2.5"}).scenario;
  CHECK(s.cluster.pool("rollout")->card.usd_per_hour == 2.5);
  const Scenario plain = load_inline("pool-price-plain", kTwoPools).scenario;
  CHECK(s.cluster.pool("train")->card.usd_per_hour == plain.cluster.pool("train")->card.usd_per_hour);
  const InputError e = load_error(kTwoPools, {"cluster.pools.rollout.usd_per_hour=-1"});
  CHECK_THAT(e.what(), Catch::Contains("usd_per_hour"));
}

TEST_CASE("a catalog row naming a built-in model patches only the fields it gives") {
  const std::string catalog =
      write_scenario("long-qwen-catalog", "models:\n  - {name: qwen3-8b, context_window_tokens: 65536}\n");
  const Scenario plain = load_inline("model-plain", kTwoPools).scenario;
  const Scenario patched =
      load_inline("model-patch", std::string(kTwoPools) + "catalog: [" + catalog + "]\n").scenario;
  CHECK(patched.model.context_window_tokens == 65536);
  CHECK(plain.model.context_window_tokens != 65536);
  CHECK(patched.model.layers == plain.model.layers);
  CHECK(patched.model.hidden_size == plain.model.hidden_size);
  CHECK(patched.model.attention.kv_heads == plain.model.attention.kv_heads);
  CHECK(patched.model.ffn.intermediate_size == plain.model.ffn.intermediate_size);
}
