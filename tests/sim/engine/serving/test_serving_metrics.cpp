// The serving figures (sim/engine/serving/serving_metrics.h) on tiny cases computed by hand: TPOT
// is (e2e − TTFT) / (output − 1) per request, warm-up requests are left out, throughput is over the
// measured requests' window, goodput counts the requests within every SLO set, a percentile needs
// a sample above it, and occupancy and KV use are time-weighted over the window.
#include <catch2/catch.hpp>

#include "sim/engine/serving/serving_metrics.h"

using namespace rlsim;

namespace {

LlmRequest served(double submit_s, double prefill_start_s, double first_token_s, double finish_s,
                  double output) {
  LlmRequest r;
  r.submit_s = submit_s;
  r.prefill_start_s = prefill_start_s;
  r.first_token_s = first_token_s;
  r.finish_s = finish_s;
  r.output_tokens = output;
  return r;
}

}  // namespace

TEST_CASE("serving metrics: TPOT, TTFT, queue and e2e per request, warm-up left out") {
  const std::vector<LlmRequest> requests{
      served(0.0, 0.0, 0.1, 9.0, 10),   // warm-up: left out
      served(1.0, 1.5, 2.0, 4.0, 5),    // TTFT 1.0, e2e 3.0, TPOT (3 - 1) / 4 = 0.5, queue 0.5
      served(2.0, 2.0, 2.5, 3.5, 3),    // TTFT 0.5, e2e 1.5, TPOT (1.5 - 0.5) / 2 = 0.5, queue 0
      served(3.0, 3.25, 3.5, 3.5, 1)};  // one token: TTFT 0.5, no TPOT
  const ServingMetrics m = serving_metrics(requests, 1, {}, {}, 8, 1000.0);
  CHECK(m.requests == 4);
  CHECK(m.warmup_excluded == 1);
  CHECK(m.measured == 3);
  CHECK(m.tpot_samples == 2);
  CHECK(m.tpot_s.mean == Approx(0.5));
  CHECK(m.ttft_s.mean == Approx((1.0 + 0.5 + 0.5) / 3));
  CHECK(m.e2e_s.mean == Approx((3.0 + 1.5 + 0.5) / 3));
  CHECK(m.queue_s.mean == Approx((0.5 + 0.0 + 0.25) / 3));
  CHECK(m.ttft_s.p50 == Approx(0.5));  // nearest rank: 2nd of 3 sorted
  // The window: first measured send (1.0) to last measured finish (4.0).
  CHECK(m.window_s == Approx(3.0));
  CHECK(m.requests_per_s == Approx(1.0));
  CHECK(m.output_tokens_per_s == Approx((5 + 3 + 1) / 3.0));
  CHECK(m.goodput_fraction == 1.0);  // no SLO set: every request meets it
}

TEST_CASE("serving metrics: the share of measured requests sent at the same instant as another") {
  CHECK(share_sent_together({}) == 0.0);
  CHECK(share_sent_together({0.5}) == 0.0);
  CHECK(share_sent_together({3.0, 1.0, 2.0, 1.0, 3.0, 0.0, 3.0}) == Approx(5.0 / 7.0));
  CHECK(share_sent_together({1.0, 1.0 + 3e-5}) == 1.0);  // replies of one iteration, 30 µs apart
  CHECK(share_sent_together({1.0, 1.0 + 5e-3}) == 0.0);  // 5 ms apart: another iteration
  // Warm-up requests do not count: the first (sent with the second) is left out.
  const std::vector<LlmRequest> requests{served(1.0, 1.0, 1.1, 2.0, 2), served(1.0, 1.0, 1.1, 2.0, 2),
                                         served(2.0, 2.0, 2.1, 3.0, 2), served(2.5, 2.5, 2.6, 3.0, 2)};
  CHECK(serving_metrics(requests, 1, {}, {}, 8, 1.0).sent_together_fraction == 0.0);
  CHECK(serving_metrics(requests, 0, {}, {}, 8, 1.0).sent_together_fraction == Approx(0.5));
}

TEST_CASE("serving metrics: goodput meets every SLO set") {
  const std::vector<LlmRequest> requests{served(0.0, 0.0, 0.2, 1.2, 11),  // TTFT 0.2, TPOT 0.1
                                         served(0.0, 0.0, 0.6, 1.1, 11),  // TTFT 0.6, TPOT 0.05
                                         served(0.0, 0.0, 0.3, 0.55, 6),  // TTFT 0.3, TPOT 0.05
                                         served(0.0, 0.0, 0.4, 0.4, 1)};  // TTFT 0.4, no TPOT
  ServingSlo slo;
  slo.ttft_s = 0.5;
  CHECK(serving_metrics(requests, 0, slo, {}, 8, 1.0).goodput_fraction == Approx(0.75));
  slo.tpot_s = 0.06;
  const ServingMetrics both = serving_metrics(requests, 0, slo, {}, 8, 1.0);
  CHECK(both.goodput_fraction == Approx(0.5));  // the third and the one-token fourth
  CHECK(both.goodput_requests_per_s == Approx(2 / 1.2));
}

TEST_CASE("serving metrics: a percentile needs a sample above it") {
  CHECK_FALSE(enough_for_quantile(0.50, 1));
  CHECK(enough_for_quantile(0.50, 2));
  CHECK_FALSE(enough_for_quantile(0.90, 9));
  CHECK(enough_for_quantile(0.90, 10));
  CHECK_FALSE(enough_for_quantile(0.99, 99));
  CHECK(enough_for_quantile(0.99, 100));
}

TEST_CASE("serving metrics: occupancy and KV use are time-weighted over the window") {
  // Window [0, 4]: one instance runs 2 sequences for 1 s, 4 for 2 s, none for the last second.
  const std::vector<LlmRequest> requests{served(0.0, 0.0, 1.0, 4.0, 4)};
  const std::vector<std::vector<LoadSample>> load{
      {{0.0, 2, 0, 100.0}, {1.0, 4, 1, 300.0}, {3.0, 0, 0, 0.0}, {9.0, 8, 0, 900.0}}};
  const ServingMetrics m = serving_metrics(requests, 0, {}, load, 8, 1000.0);
  CHECK(m.batch_occupancy == Approx((2 * 1 + 4 * 2) / 4.0 / 8));
  CHECK(m.kv_use_mean == Approx((100 * 1 + 300 * 2) / 4.0 / 1000));
  CHECK(m.kv_use_max == Approx(0.3));  // the sample at 9 s is after the window
}
