// The serve summary's TTFT lines: the mean TTFT split into queue, prefill start to first token and
// API server, and what the requests queued behind, the first that binds of a full KV cache (or a
// preemption), max_batch, or neither.
#include <catch2/catch.hpp>

#include "tools/report/serve_diagnosis.h"

using namespace rlsim;

namespace {

/// 100 measured requests of 1 s TTFT, `queued_s` of it queued, KV, batch and preemptions as given.
ServingMetrics measured(double queued_s, double kv_use_max, double batch_occupancy, int preempted = 0) {
  ServingMetrics m;
  m.preempted = preempted;
  m.requests = m.measured = 100;
  m.ttft_s.mean = 1.0;
  m.queue_s.mean = queued_s;
  m.kv_use_max = kv_use_max;
  m.batch_occupancy = batch_occupancy;
  return m;
}

}  // namespace

TEST_CASE("serve diagnosis: TTFT splits into queue, prefill and API server, which add up to it") {
  const std::string lines = ttft_breakdown_lines(measured(0.05, 0.3, 0.2), 0.0108, true);
  CHECK(lines ==
        "  TTFT 1000.00 ms on average: 50.00 ms (5 %) queued, 939.20 ms (94 %) from prefill start to first "
        "token, 10.80 ms (1 %) API server\n");
  // In-process (no API server): no such part.
  CHECK_THAT(ttft_breakdown_lines(measured(0.05, 0.3, 0.2), 0.0, true),
             Catch::EndsWith("950.00 ms (95 %) from prefill start to first token\n"));
  ServingMetrics none;
  CHECK(ttft_breakdown_lines(none, 0.0108, true).empty());
}

TEST_CASE("serve diagnosis: what requests queued behind, the KV cache first, then max_batch") {
  // Queued 10 % of TTFT or more: the second line names the cause.
  const std::string kv = ttft_breakdown_lines(measured(0.5, 0.99, 0.95), 0.0, true);
  CHECK_THAT(kv, Catch::Contains("  queued behind: a full KV cache (99.0 % at its fullest; 0 of 100 measured "
                                 "requests preempted)\n    what helps: an fp8 KV cache, a larger tp or more "
                                 "GPUs"));
  // A preemption is a full cache whatever the peak sampled; fp8 is no remedy for an fp8 cache.
  const std::string preempted = ttft_breakdown_lines(measured(0.5, 0.9, 0.2, 3), 0.0, false);
  CHECK_THAT(preempted, Catch::Contains("a full KV cache (90.0 % at its fullest; 3 of 100 measured requests "
                                        "preempted)\n    what helps: a larger tp or more GPUs"));
  CHECK_THAT(ttft_breakdown_lines(measured(0.5, 0.5, 0.95), 0.0, true),
             Catch::Contains("  queued behind: max_batch (the decode batch held 95.0 % of it on average)\n"
                             "    what helps: a larger max_batch"));
  CHECK_THAT(ttft_breakdown_lines(measured(0.5, 0.5, 0.5), 0.0, true),
             Catch::Contains("  queued behind: the iteration in flight and other requests' prefill work "
                             "(KV cache at most 50.0 % full, decode batch 50.0 % of max_batch on average)\n"
                             "    what helps: more replicas"));
  // Just under 10 %: no cause line.
  CHECK(ttft_breakdown_lines(measured(0.099, 0.99, 0.95), 0.0, true).find("queued behind") ==
        std::string::npos);
}

TEST_CASE("serve diagnosis: the cause as metrics.json names it, from a run's figures or a sweep row's") {
  CHECK(queue_cause_name(queue_cause(queue_figures(measured(0.5, 0.99, 0.2)))) == "kv_cache");
  CHECK(queue_cause_name(queue_cause(queue_figures(measured(0.5, 0.5, 0.2, 1)))) == "kv_cache");
  CHECK(queue_cause_name(queue_cause(queue_figures(measured(0.5, 0.5, 0.9)))) == "max_batch");
  CHECK(queue_cause_name(queue_cause(queue_figures(measured(0.5, 0.5, 0.89)))) == "prefill_work");
  CHECK(queue_cause(queue_figures(measured(0.09, 0.99, 0.95))) == QueueCause::short_queue);
  CHECK(queue_cause_name(QueueCause::short_queue).empty());
  CHECK(queue_cause(queue_figures(ServingMetrics{})) == QueueCause::short_queue);
  // A sweep row carries the figures themselves (queue_share, kv_use_max, batch_occupancy,
  // preempted_requests).
  CHECK(queue_cause(QueueFigures{0.4, 0.3, 0.95, 0}) == QueueCause::max_batch);
  CHECK(queue_cause(QueueFigures{0.4, 0.3, 0.2, 2}) == QueueCause::kv_cache);
  CHECK(queue_figures(measured(0.25, 0.3, 0.2)).queue_share == Approx(0.25));
}
