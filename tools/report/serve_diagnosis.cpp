// Where TTFT goes and what requests queued behind (serve_diagnosis.h).
#include "tools/report/serve_diagnosis.h"

#include <algorithm>

#include "tools/report/text_format.h"

namespace rlsim {

QueueFigures queue_figures(const ServingMetrics& m) {
  QueueFigures f;
  f.queue_share = m.measured > 0 && m.ttft_s.mean > 0.0 ? m.queue_s.mean / m.ttft_s.mean : 0.0;
  f.kv_use_max = m.kv_use_max;
  f.batch_occupancy = m.batch_occupancy;
  f.preempted = m.preempted;
  return f;
}

QueueCause queue_cause(const QueueFigures& f) {
  if (f.queue_share < kQueueNoteFraction) return QueueCause::short_queue;
  if (f.preempted > 0 || f.kv_use_max >= kKvFullFraction) return QueueCause::kv_cache;
  if (f.batch_occupancy >= kBatchFullFraction) return QueueCause::max_batch;
  return QueueCause::prefill_work;
}

std::string queue_cause_name(QueueCause cause) {
  switch (cause) {
    case QueueCause::kv_cache: return "kv_cache";
    case QueueCause::max_batch: return "max_batch";
    case QueueCause::prefill_work: return "prefill_work";
    case QueueCause::short_queue: break;
  }
  return "";
}

std::string ttft_breakdown_lines(const ServingMetrics& m, double api_server_s, bool kv_wider_than_fp8) {
  const double ttft = m.ttft_s.mean, queued = m.queue_s.mean;
  if (m.measured == 0 || ttft <= 0.0) return "";
  const double prefill = std::max(0.0, ttft - queued - api_server_s);
  const auto part = [&](double seconds) {
    return formatted("%.2f ms", 1e3 * seconds) + " (" + formatted("%.0f %%", 100.0 * seconds / ttft) + ")";
  };
  const auto percent = [](double fraction) { return formatted("%.1f %%", 100.0 * fraction); };
  std::string out = "  TTFT " + formatted("%.2f ms", 1e3 * ttft) + " on average: " + part(queued) +
                    " queued, " + part(prefill) + " from prefill start to first token" +
                    (api_server_s > 0.0 ? ", " + part(api_server_s) + " API server" : std::string()) + "\n";
  // The cause and its evidence, then what helps, on a line of its own.
  switch (queue_cause(queue_figures(m))) {
    case QueueCause::short_queue: break;
    case QueueCause::kv_cache:
      out += "  queued behind: a full KV cache (" + percent(m.kv_use_max) + " at its fullest; " +
             std::to_string(m.preempted) + " of " + std::to_string(m.measured) +
             " measured requests preempted)\n" +
             "    what helps: " + (kv_wider_than_fp8 ? "an fp8 KV cache, " : "") +
             "a larger tp or more GPUs hold more sequences\n";
      break;
    case QueueCause::max_batch:
      out += "  queued behind: max_batch (the decode batch held " + percent(m.batch_occupancy) +
             " of it on average)\n    what helps: a larger max_batch admits more at once while the KV cache "
             "holds them\n";
      break;
    case QueueCause::prefill_work:
      out += "  queued behind: the iteration in flight and other requests' prefill work (KV cache at most " +
             percent(m.kv_use_max) + " full, decode batch " + percent(m.batch_occupancy) +
             " of max_batch on average)\n    what helps: more replicas share that work out, a larger tp "
             "shortens it\n";
      break;
  }
  return out;
}

}  // namespace rlsim
