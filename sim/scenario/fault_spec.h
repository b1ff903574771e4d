// FaultSpec: the `faults:` section — GPUs or nodes that fail at a time and come back after a
// repair, and how lost work is redone (restart the interrupted step, or go back to the last
// checkpoint taken every `checkpoint_interval` steps).
#pragma once

#include <string>
#include <vector>

#include "models/input_error.h"

namespace rlsim {

struct FaultEvent {
  double at_s = 0.0;
  double repair_after_s = 0.0;
  std::string pool;
  int first_gpu = 0;  ///< index within the pool (node-major)
  int gpus = 1;       ///< 1 for a GPU, gpus_per_node for a node
  std::string target; ///< as written, e.g. "gpu train/3" (reports)
  SourceLocation where;
};

struct FaultsSpec {
  std::vector<FaultEvent> events;
  std::string recovery = "restart_step";  ///< restart_step | checkpoint
  int checkpoint_interval = 1;            ///< steps between checkpoints (recovery: checkpoint)
  double restart_s = 0.0;                 ///< reloading a stopped job (weights, optimizer) after repair
};

}  // namespace rlsim
