// FaultSpec: the `faults:` section — GPUs, nodes or links that fail at a time and come back after
// a repair, and how work lost on GPUs is redone (restart the interrupted step, or go back to the last
// checkpoint taken every `checkpoint_interval` steps).
#pragma once

#include <string>
#include <vector>

#include "models/input_error.h"
#include "sim/scenario/choices.h"

namespace rlsim {

struct FaultEvent {
  double at_s = 0.0;
  double repair_after_s = 0.0;
  std::string pool;
  int first_gpu = 0;   ///< index within the pool (node-major)
  int gpus = 1;        ///< 1 for a GPU, gpus_per_node for a node
  std::string target;  ///< as written, e.g. "gpu train/3" (reports)
  SourceLocation where;
};

/// A link of cluster.links that goes down at `at_s` for `repair_after_s`: transfers over it stall
/// (as TCP does over a dead link) and resume at its full bandwidth once it is repaired.
struct LinkFault {
  double at_s = 0.0;
  double repair_after_s = 0.0;
  int link = 0;        ///< index into cluster.links
  std::string target;  ///< as written, e.g. "link rollout-train" (reports)
  SourceLocation where;
};

struct FaultsSpec {
  std::vector<FaultEvent> events;  ///< GPUs and nodes
  std::vector<LinkFault> link_events;
  FaultRecovery recovery = FaultRecovery::restart_step;
  int checkpoint_interval = 1;  ///< steps between checkpoints (recovery: checkpoint)
  double restart_s = 0.0;       ///< reloading a stopped job (weights, optimizer) after repair
};

}  // namespace rlsim
