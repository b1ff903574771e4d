// The layer-level AFD simulation against the analytical ping-pong model: within 5% while the
// network is uncongested, diverging once the transfers queue on saturated NICs; the pipeline's
// overlap, determinism and the number of SimGrid activities it issues; the attention-layer figure.
#include <catch2/catch.hpp>

#include "models/cost/cost_model_registry.h"
#include "sim/afd/afd_plan.h"
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

TEST_CASE("the attention-layer figure is one micro-batch on the busiest GPU, head left out") {
  // 6145 sequences in 3 micro-batches over 16 attention GPUs: 2049, 2048, 2048, so one GPU of the
  // first micro-batch holds 129 sequences and every other GPU 128.
  const AfdScenario s = load_afd(step3_file(), {"afd.batch=6145"}).scenario;
  const auto cost = make_cost_model(s.cost_model, s.profile);
  const AfdPlan plan = make_afd_plan(s, *cost);
  const HardwareSpec& card = s.cluster.pool(s.afd.attention_pool)->card;
  const int layers = s.model.layers;
  double expected = 0.0;
  for (int layer = 0; layer + 1 < layers; ++layer) {
    auto seconds = [&](int64_t sequences) {
      return afd_attention_seconds(s.model, card, *cost, layer, sequences, s.afd.context, s.afd.precisions,
                                   false);
    };
    expected += (seconds(129) + 2.0 * seconds(128)) / 3.0;
  }
  expected /= layers - 1;
  CHECK(afd_attention_layer_seconds(plan) == Approx(expected).epsilon(1e-12));
  // The last layer, which adds the lm_head, is slower and left out.
  const double last =
      afd_attention_seconds(s.model, card, *cost, layers - 1, 128, s.afd.context, s.afd.precisions, true);
  CHECK(last >
        afd_attention_seconds(s.model, card, *cost, layers - 1, 128, s.afd.context, s.afd.precisions, false));
}

TEST_CASE(
    "hybrid EP + TP: each expert group all-gathers and reduce-scatters over its node's scale-up ports") {
  // Step-3's FFN as its report deploys it (§7.1): EP across the two FFN nodes, TP 8 inside each.
  const std::vector<std::string> hybrid{"cluster.pools.ffn.gpu=H800", "afd.batch=2048", "afd.micro_batches=1",
                                        "afd.ffn.tp=8"};
  const LoadedAfdScenario loaded = load_afd(step3_file(), hybrid);
  const AfdScenario& s = loaded.scenario;
  const AfdPlan plan = make_afd_plan(s, *make_cost_model(s.cost_model, s.profile));
  // One micro-batch: nothing overlaps, so each collective has the ports to itself. A ring message
  // of (t − 1)/t of the buffer shares each port with the message arriving from the previous GPU.
  const LinkParams& port = s.cluster.pool("ffn")->intra_node;
  double expected = 0.0;
  for (const AfdLayerPlan& layer : plan.layers) {
    REQUIRE(layer.group_gather_bytes.size() == 1);
    const double bytes = layer.group_gather_bytes[0] + layer.group_scatter_bytes[0];
    expected += bytes * 7.0 / 8.0 / (port.bandwidth_bytes_per_s / 2.0) + 2.0 * 2.0 * port.latency_s;
  }
  expected /= static_cast<double>(plan.layers.size());
  const AfdFigures f = simulate_afd_in_child(step3_file(), hybrid);
  CHECK(f.group_collective_s_per_layer == Approx(expected).epsilon(1e-3));
  // The analytic model counts them in its hops: with one micro-batch it still matches.
  CHECK(f.tpot_s == Approx(f.analytic_s).epsilon(0.05));
  // Per layer 16 more comms each way than plain EP (one ring message per FFN GPU).
  CHECK(f.activities == 2L * 61 * 1 * (16 + 16 + 2 * 16 * 2 + 2 * 16));
  // Plain EP has no collectives; the hybrid's FFN time differs only by its GEMM shapes.
  auto plain_overrides = hybrid;
  plain_overrides.back() = "afd.ffn.tp=1";
  const AfdFigures plain = simulate_afd_in_child(step3_file(), plain_overrides);
  CHECK(plain.group_collective_s_per_layer == 0.0);
  CHECK(f.ffn_s_per_layer == Approx(plain.ffn_s_per_layer).epsilon(0.1));
  CHECK(f.tpot_s > plain.tpot_s);
}
