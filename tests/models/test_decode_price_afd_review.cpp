// Step-3 decode cost per 1M tokens, AFD sizing and the co-design review.
#include <catch2/catch.hpp>
#include <string>

#include "models/afd/afd_sizing.h"
#include "models/arch_params.h"
#include "models/review/decode_price.h"
#include "models/review/design_review.h"
#include "tests/models/reference_specs.h"

using namespace rlsim;
using Catch::Matchers::WithinRel;

TEST_CASE("Step-3 at 32K context costs about $0.13 per 1M tokens on H20 attention + H800 FFN",
          "[decode-cost]") {
  // Step-3 paper (arXiv 2507.19427): 0.13 USD per 1M tokens at 32K, 8-bit KV, AFD on Hopper.
  const DecodeTokenCost t = decode_token_cost(test::step3(), 32768, Precision::fp8);
  const AfdPairing pair = cheapest_afd_pairing(t, {test::h800(), test::h20(), test::a800()});
  CHECK(pair.attention_card == "H20");
  CHECK(pair.ffn_card == "H800");
  CHECK_THAT(pair.cost.total_usd(), WithinRel(0.13, 0.03));
}

TEST_CASE("decode cost follows the $/FLOP and $/byte formulas", "[decode-cost]") {
  const HardwareSpec h800 = test::h800(), a800 = test::a800();
  CHECK_THAT(usd_per_flop(h800), WithinRel(2.0 / 3600 / 1979e12, 1e-12));
  CHECK_THAT(usd_per_flop(a800), WithinRel(0.75 / 3600 / 312e12, 1e-12));  // no fp8: bf16 peak
  CHECK_THAT(usd_per_byte(h800), WithinRel(2.0 / 3600 / 3.35e12, 1e-12));
  DecodeTokenCost t;
  t.attention_flops = 1e9;
  t.kv_bytes = 1e9;  // memory term dominates on H800
  t.linear_flops = 2e9;
  t.ffn_flops = 4e9;
  const DecodePricePerMillion c = decode_price_per_million(t, h800);
  CHECK_THAT(c.attention_usd, WithinRel(1e6 * (1e9 * usd_per_byte(h800) + 2e9 * usd_per_flop(h800)), 1e-12));
  CHECK_THAT(c.ffn_usd, WithinRel(1e6 * 4e9 * usd_per_flop(h800), 1e-12));
}

TEST_CASE("AFD limits from the network, the FFN ridge and the sparsity", "[afd]") {
  const ModelArch m = test::step3();
  const HardwareSpec h800 = test::h800();
  AfdOptions o;
  o.tpot_s = 0.05;
  const AfdLimits l = afd_limits(m, h800, o);
  const double node_bw = 8 * 50e9;
  CHECK(l.node_network_bytes_per_s == node_bw);
  CHECK_THAT(l.max_batch_network, WithinRel(0.05 / 3 * node_bw / (3.0 * 7168 * 61), 1e-12));
  const double ridge = 1979e12 / 3.35e12;
  CHECK_THAT(l.min_batch_ffn, WithinRel(ridge / (2 * 4.0 / 49), 1e-12));
  CHECK_THAT(l.min_sparsity, WithinRel(ridge / (2 * l.max_batch_network), 1e-12));
  CHECK(l.feasible());  // Step-3's 0.082 is above H800's minimum (~0.058)
  // DeepSeek-V3's 9/257 sparsity is too low for an H800 FFN at 50 ms (the Step-3 paper's point).
  CHECK_FALSE(afd_limits(test::deepseek_v3(), h800, o).feasible());
  // A looser TPOT lets the network carry a bigger batch.
  o.tpot_s = 0.1;
  CHECK(afd_limits(m, h800, o).max_batch_network > l.max_batch_network);
}

TEST_CASE("the review recommends cards and explains itself", "[review]") {
  ReviewOptions o;
  o.context = 4096;
  const DesignReview r = review_design(test::step3(), {test::h800(), test::h20(), test::a800()}, o);
  REQUIRE(r.cards.size() == 3);
  CHECK(r.cards[0].card == "H800");
  CHECK(r.cards[0].compute_precision == Precision::fp8);
  CHECK(r.cards[2].compute_precision == Precision::bf16);
  CHECK(r.cards[1].modules[0].name == "attention");
  CHECK(r.cards[1].modules[0].bound == Bound::compute);  // MFA's 128 is above H20's fp8 ridge of 74
  CHECK(r.cards[0].modules[0].bound == Bound::memory);   // below H800's 591
  CHECK_FALSE(r.attention_card.empty());
  CHECK_FALSE(r.ffn_card.empty());
  CHECK(r.afd_cost.total_usd() <= r.best_single_cost.total_usd() + 1e-15);
  REQUIRE(r.quantisation.size() == 3);
  CHECK_THAT(r.quantisation[1].attention_arithmetic_intensity,
             WithinRel(2 * r.quantisation[0].attention_arithmetic_intensity, 1e-12));
  REQUIRE(r.verdict.size() >= 3);
  CHECK(r.verdict[2].find("Recommended AFD pair") != std::string::npos);
}
