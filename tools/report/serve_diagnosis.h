// Where a serving run's time to first token goes, and what its requests queued behind: read off the
// run's own figures (ServingMetrics), so a reader sees which resource binds before sweeping a
// remedy. No model of its own. The serve summary prints the lines, metrics.json carries the cause
// (`queued_behind`), and a sweep its figures (`queue_share`, `kv_use_max`, `preempted_requests`
// beside `batch_occupancy`), from which its summary names each point's cause.
#pragma once

#include <string>

#include "sim/engine/serving/serving_metrics.h"

namespace rlsim {

/// The share of the mean TTFT spent queued from which a run has a cause to name.
constexpr double kQueueNoteFraction = 0.1;
/// KV use at its fullest from which the KV cache counts as full.
constexpr double kKvFullFraction = 0.98;
/// Mean decode-batch occupancy (of max_batch) from which max_batch counts as what binds.
constexpr double kBatchFullFraction = 0.9;

/// What the cause is read from: a run's ServingMetrics, or a serving sweep's row.
struct QueueFigures {
  double queue_share = 0.0;      ///< the mean queue over the mean TTFT (0 when nothing was measured)
  double kv_use_max = 0.0;       ///< KV use at its fullest
  double batch_occupancy = 0.0;  ///< mean decode batch over max_batch
  int preempted = 0;             ///< measured requests preempted at least once
};
QueueFigures queue_figures(const ServingMetrics& m);

/// What held requests in the queue, the first that holds of: a full KV cache (at kKvFullFraction
/// at its fullest, or any measured request preempted), max_batch, or neither (the iteration in
/// flight and other requests' prefill work). `short_queue` when queueing is under
/// kQueueNoteFraction of the mean TTFT or nothing was measured.
enum class QueueCause { short_queue, kv_cache, max_batch, prefill_work };
QueueCause queue_cause(const QueueFigures& f);
/// "kv_cache", "max_batch", "prefill_work"; "" for short_queue (metrics.json and sweep.csv).
std::string queue_cause_name(QueueCause cause);

/// "  TTFT … on average: … queued, … from prefill start to first token, … API server" and, unless
/// the queue is short, "  queued behind: …" with its evidence and "    what helps: …" (an fp8 KV
/// cache only when `kv_wider_than_fp8`). Empty when nothing was measured.
std::string ttft_breakdown_lines(const ServingMetrics& m, double api_server_s, bool kv_wider_than_fp8);

}  // namespace rlsim
