// The layer-level AFD simulation against the analytical ping-pong model: within 5% while the
// network is uncongested, diverging once the transfers queue on saturated NICs; the pipeline's
// overlap, determinism and the number of SimGrid activities it issues.
#include <catch2/catch.hpp>

#include "tests/sim/afd/afd_test_support.h"

using namespace rlsim;
using namespace rlsim::test;

TEST_CASE("uncongested: simulated TPOT within 5% of MegaScale-Infer's ping-pong estimate") {
  for (const char* batch : {"256", "2048", "4096"}) {
    const AfdFigures f = simulate_afd_in_child(step3_file(), {std::string("afd.batch=") + batch});
    INFO("batch " << batch << ": simulated " << f.tpot_s * 1e3 << " ms, analytic " << f.analytic_s * 1e3
                  << " ms");
    CHECK(f.link_utilization < 0.5);
    CHECK(f.tpot_s == Approx(f.analytic_s).epsilon(0.05));
    // The first iteration starts from an empty pipeline: exactly the formula's whole-batch latency.
    CHECK(f.batch_latency_s == Approx(f.analytic_s).epsilon(0.05));
  }
}

TEST_CASE("congested: once the NICs saturate, transfers queue and the simulation leaves the formula behind") {
  // Step-3's published deployment runs the experts on H800 too: fast FFNs leave the network exposed.
  const std::vector<std::string> fast_ffn{"cluster.pools.ffn.gpu=H800", "afd.batch=6144"};
  auto with = [&](const char* nic) {
    auto overrides = fast_ffn;
    overrides.push_back(std::string("cluster.nic.bandwidth=") + nic);
    return simulate_afd_in_child(step3_file(), overrides);
  };
  const AfdFigures wide = with("400Gbps"), narrow = with("100Gbps");
  INFO("400 Gbps: simulated " << wide.tpot_s * 1e3 << " ms, analytic " << wide.analytic_s * 1e3 << " ms");
  INFO("100 Gbps: simulated " << narrow.tpot_s * 1e3 << " ms, analytic " << narrow.analytic_s * 1e3 << " ms");
  CHECK(wide.tpot_s == Approx(wide.analytic_s).epsilon(0.05));
  CHECK(narrow.link_utilization > 0.9);
  // The formula charges each hop T_c as if alone on the wire; here dispatches and combines of
  // neighbouring micro-batches share the NICs, so the network becomes the pipeline's slowest stage.
  CHECK(narrow.tpot_s > 1.2 * narrow.analytic_s);
  CHECK(narrow.transfer_s_per_layer > narrow.ffn_s_per_layer);
}

TEST_CASE("ping-pong micro-batches overlap attention, transfer and FFN") {
  const AfdFigures one = simulate_afd_in_child(step3_file(), {"afd.micro_batches=1", "afd.batch=2048"});
  const AfdFigures three = simulate_afd_in_child(step3_file(), {"afd.micro_batches=3", "afd.batch=2048"});
  // One micro-batch is a round trip per layer with nothing overlapped; still the formula holds.
  CHECK(one.tpot_s == Approx(one.analytic_s).epsilon(0.05));
  CHECK(three.tpot_s < one.tpot_s);
}

TEST_CASE("a run is deterministic and issues few, large activities") {
  const AfdFigures a = simulate_afd_in_child(step3_file(), {"afd.batch=1024"});
  const AfdFigures b = simulate_afd_in_child(step3_file(), {"afd.batch=1024"});
  CHECK(a.tpot_s == b.tpot_s);
  CHECK(a.link_utilization == b.link_utilization);
  // Per layer and micro-batch: 16 + 16 execs, 16 × 2 FFN nodes dispatches and as many combines.
  CHECK(a.activities == 2L * 61 * 3 * (16 + 16 + 2 * 16 * 2));
}

TEST_CASE("TPOT grows with batch and throughput per GPU rises") {
  double last_tpot = 0.0, last_throughput = 0.0;
  for (const char* batch : {"128", "1024", "4096"}) {
    const AfdFigures f = simulate_afd_in_child(step3_file(), {std::string("afd.batch=") + batch});
    CHECK(f.tpot_s > last_tpot);
    CHECK(f.tokens_per_s_per_gpu > last_throughput);
    last_tpot = f.tpot_s;
    last_throughput = f.tokens_per_s_per_gpu;
  }
}
