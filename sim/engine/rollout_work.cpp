// Continuous-batching time of one instance's trajectories (foundation's simple costs).
#include "sim/engine/rollout_work.h"

#include <algorithm>
#include <cmath>

#include "sim/engine/simple_costs.h"

namespace rlsim {

RolloutPlan plan_rollout(const Scenario& s, const HardwareSpec& card, const std::vector<const Trajectory*>& work) {
  RolloutPlan plan;
  if (work.empty()) return plan;
  const double iteration = SimpleCosts::decode_iteration_s(s.model, card, s.rollout.tp, s.rollout.weights);
  double longest_path = 0.0, total_tokens = 0.0, total_prefill = 0.0;
  for (const Trajectory* t : work) {
    double path = 0.0;
    for (const LlmCall& call : t->calls) {
      const double prefill = SimpleCosts::prefill_s(s.model, card, s.rollout.tp, call.prompt_tokens);
      plan.calls.push_back(CallRecord{prefill + iteration, iteration});
      path += prefill + call.output_tokens * iteration + call.tool_latency_s;
      total_tokens += call.output_tokens;
      total_prefill += prefill;
    }
    longest_path = std::max(longest_path, path);
  }
  const double concurrency = std::min<double>(s.rollout.max_batch, static_cast<double>(work.size()));
  const double batched = total_prefill + std::ceil(total_tokens / concurrency) * iteration;
  plan.seconds = std::max(batched, longest_path);
  plan.generated_tokens = total_tokens;
  return plan;
}

}  // namespace rlsim
