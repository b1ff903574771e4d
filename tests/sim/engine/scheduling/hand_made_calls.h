// Test helpers for the replica schedulers: calls made by hand, held at stable addresses, calls
// waiting with given prompt lengths, a budgeted scheduler by name, and a plan accounted as the
// instance's runner accounts it.
#pragma once

#include <catch2/catch.hpp>
#include <deque>
#include <initializer_list>
#include <memory>

#include "sim/engine/scheduling/replica_scheduler.h"
#include "sim/scenario/param_reader.h"

namespace rlsim::test {

struct Calls {
  std::deque<LlmRequest> requests;  // stable addresses

  LlmRequest* add(int trajectory, double context, double fresh, double output) {
    LlmRequest& r = requests.emplace_back();
    r.trajectory = trajectory;
    r.context_tokens = context;
    r.new_tokens = fresh;
    r.output_tokens = output;
    return &r;
  }
};

/// Calls waiting in `replica` with these prompt lengths (no context, 10 output tokens each), in arrival
/// order.
inline void waiting_prompts(Calls& calls, ReplicaState& replica, std::initializer_list<double> prompts) {
  int trajectory = 0;
  for (double prompt : prompts)
    replica.waiting.push_back(Sequence::arriving(calls.add(trajectory++, 0.0, prompt, 10.0)));
}

/// The registered scheduler `name` with a token budget of `budget` (its other parameters default).
inline std::unique_ptr<ReplicaScheduler> with_token_budget(const char* name, int64_t budget,
                                                           int max_batch = 64, double kv_capacity = 1e6) {
  const auto* entry = ReplicaSchedulerRegistry::instance().find(name);
  REQUIRE(entry != nullptr);
  ParamValues params = ParamValues::defaults(entry->params);
  params.set("token_budget", budget, {"test", 0, 0});
  return make_replica_scheduler(name, params, SchedulerLimits{max_batch, kv_capacity, false});
}

/// Accounts `plan` as the instance's runner does: sequences whose prompt it finished decode from then on.
inline void run_prefills(ReplicaState& replica, const IterationPlan& plan) {
  for (const PrefillWork& w : plan.prefill) {
    if (w.completes_prompt) replica.running[w.sequence].needs_prefill = false;
  }
}

}  // namespace rlsim::test
