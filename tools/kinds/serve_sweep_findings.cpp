// The notes printed under a serving sweep's table.
#include "tools/kinds/serve_sweep_findings.h"

#include "tools/report/serve_diagnosis.h"
#include "tools/report/serve_report.h"
#include "tools/report/text_format.h"
#include "tools/sweep/sweep_objective.h"

namespace rlsim {

std::string serve_sweep_findings(const SweepTable& table, const SweepManifest& manifest) {
  bool short_of_requests = false;
  std::string lock_step, queued;
  for (const auto& [point, cells] : table.rows) {
    if (!sweep_point_feasible(table, point)) continue;  // no figures at all
    const QueueFigures figures{table.number(point, "queue_share"), table.number(point, "kv_use_max"),
                               table.number(point, "batch_occupancy"),
                               static_cast<int>(table.number(point, "preempted_requests"))};
    if (const QueueCause cause = queue_cause(figures); cause != QueueCause::short_queue)
      queued += (queued.empty() ? "" : ", ") + sweep_point_text(table, manifest, point) + " " +
                queue_cause_name(cause);
    for (const char* quantile : {"ttft_p50_s", "ttft_p99_s", "tpot_p50_s", "tpot_p99_s"}) {
      const int k = table.column(quantile);
      if (k >= 0 && cells[static_cast<size_t>(k)].empty()) short_of_requests = true;
    }
    const int together = table.column("sent_together_fraction");
    if (together < 0 || cells[static_cast<size_t>(together)].empty()) continue;  // not a closed loop
    const double fraction = table.number(point, "sent_together_fraction");
    if (fraction >= kLockStepNoteFraction) {
      lock_step += (lock_step.empty() ? "" : ", ") + sweep_point_text(table, manifest, point) + " " +
                   formatted("%.0f %%", 100.0 * fraction);
    }
  }
  std::string out;
  if (short_of_requests)
    out +=
        "-: too few measured requests for that percentile (p99 needs at least 100: raise "
        "workload.requests)\n";
  if (!lock_step.empty()) {
    out += "sent together (requests that left within 1 ms of another): " + lock_step +
           ": clients there send in waves, so TTFT leans to the lock-step bound (rlsim run of a point with "
           "fixed lengths prints the run for the other bound)\n";
  }
  if (!queued.empty()) {
    out += "queued behind (where queueing took a tenth of TTFT or more; rlsim run prints what helps): " +
           queued + "\n";
  }
  return out;
}

}  // namespace rlsim
