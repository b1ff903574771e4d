// IterationRunner: runs one iteration's plan (scheduling/replica_scheduler.h) on an instance's GPU
// group: it costs the plan with InstanceTime, runs it as execs on the calling actor (the instance's),
// records it on the group's timeline, and accounts the tokens generated in the ReplicaState. Plan
// parts run one after the other: the swap-out of preempted KV, then either the prefill (restores of
// swapped KV first, recorded as `switching`; then all prefill chunks, with the plan's decoding
// sequences when it has both, as ONE forward pass, one iteration) or a decode stretch, which a
// message arriving on the instance's mailbox cuts short at an iteration boundary.
#pragma once

#include <functional>
#include <simgrid/s4u.hpp>
#include <vector>

#include "sim/engine/group_timeline.h"
#include "sim/engine/instance_time.h"
#include "sim/engine/scheduling/replica_scheduler.h"
#include "sim/engine/scheduling/replica_state.h"

namespace rlsim {

class IterationRunner {
 public:
  /// Called for each sequence that has no tokens left, while it is still in the running batch.
  using Complete = std::function<void(Sequence& finished)>;

  /// Keeps references to all three.
  IterationRunner(ReplicaState& replica, const InstanceTime& time, const GroupTimeline& gpus)
      : replica_(replica), time_(time), gpus_(gpus) {}

  /// Runs `plan` with weights `version`. `interrupt` (the instance's posted receive; may be null)
  /// ends a decode stretch early when it completes. Finished sequences go to `complete`, then leave
  /// the batch.
  void run(const IterationPlan& plan, int version, const simgrid::s4u::CommPtr& interrupt,
           const Complete& complete);

 private:
  void prefill(const IterationPlan& plan, int version);
  void decode(const std::vector<size_t>& sequences, long iterations, int version,
              const simgrid::s4u::CommPtr& interrupt);
  /// Runs a decode stretch of which each GPU works `busy_share` (pipeline bubbles); returns the
  /// iterations done (fewer when `interrupt` completes first).
  long run_stretch(const DecodeStretch& stretch, double busy_share, const simgrid::s4u::CommPtr& interrupt);
  void complete_finished(const Complete& complete);

  ReplicaState& replica_;
  const InstanceTime& time_;
  const GroupTimeline& gpus_;
};

}  // namespace rlsim
