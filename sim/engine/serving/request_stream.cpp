// Planning a serving benchmark's requests.
#include "sim/engine/serving/request_stream.h"

#include <algorithm>
#include <cmath>

#include "sim/engine/workload.h"

namespace rlsim {

std::vector<PlannedRequest> plan_requests(const ServeWorkloadSpec& workload, std::mt19937_64& rng) {
  std::vector<PlannedRequest> plan;
  plan.reserve(static_cast<size_t>(workload.requests));
  std::exponential_distribution<double> gap(workload.rate_per_s > 0.0 ? workload.rate_per_s : 1.0);
  double clock_s = 0.0;
  // A prompt pool draws from its own stream, seeded once from the run's, so the lengths and
  // arrivals drawn without a pool stay what they were.
  std::mt19937_64 pool_rng(workload.prompt_pool > 0 ? rng() : 0);
  std::uniform_int_distribution<int> pool_entry(0, std::max(0, workload.prompt_pool - 1));
  std::vector<double> entry_tokens(static_cast<size_t>(workload.prompt_pool), -1.0);  // -1: not drawn yet
  for (int i = 0; i < workload.requests; ++i) {
    PlannedRequest r;
    r.id = i;
    if (workload.arrivals == ArrivalMode::trace) {
      const TracedRequest& row = workload.trace[static_cast<size_t>(i)];
      r.arrival_s = row.arrival_s;
      r.prompt_tokens = row.prompt_tokens;
      r.output_tokens = row.output_tokens;
    } else {
      if (workload.arrivals == ArrivalMode::poisson && i > 0) clock_s += gap(rng);
      r.arrival_s = clock_s;
      r.prompt_tokens = std::round(sample(workload.prompt_tokens, rng));
      r.output_tokens = std::max(1.0, std::round(sample(workload.output_tokens, rng)));
    }
    if (workload.shared_prefix_tokens > 0 && r.prompt_tokens > 1.0) {
      r.shared_prefix_tokens = std::min<double>(workload.shared_prefix_tokens, r.prompt_tokens - 1.0);
      r.prefix_group = i % workload.shared_prefix_groups;
    }
    if (workload.prompt_pool > 0) {
      // The whole prompt is the pool entry's: cached, it leaves one token to compute, as a prefix
      // cache always computes the last prompt token to produce the first output one.
      const int entry = pool_entry(pool_rng);
      double& tokens = entry_tokens[static_cast<size_t>(entry)];
      if (tokens < 0.0) tokens = r.prompt_tokens;
      r.prompt_tokens = tokens;
      r.shared_prefix_tokens = std::max(0.0, r.prompt_tokens - 1.0);
      r.prefix_group = entry;
    }
    plan.push_back(r);
  }
  return plan;
}

}  // namespace rlsim
