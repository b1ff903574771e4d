// Test helpers for the replica schedulers: calls made by hand, held at stable addresses, and a
// plan accounted as the instance's runner accounts it.
#pragma once

#include <deque>

#include "sim/engine/scheduling/replica_scheduler.h"

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

/// Accounts `plan` as the instance's runner does: sequences whose prompt it finished decode from then on.
inline void run_prefills(ReplicaState& replica, const IterationPlan& plan) {
  for (const PrefillWork& w : plan.prefill) {
    if (w.completes_prompt) replica.running[w.sequence].needs_prefill = false;
  }
}

}  // namespace rlsim::test
