// Making a replica scheduler from the registry by name.
#include "sim/engine/scheduling/replica_scheduler.h"

#include <cassert>

namespace rlsim {

std::unique_ptr<ReplicaScheduler> make_replica_scheduler(const std::string& name,
                                                         const std::optional<ParamValues>& params,
                                                         const SchedulerLimits& limits) {
  const auto* entry = ReplicaSchedulerRegistry::instance().find(name);
  assert(entry && "replica scheduler names are checked when the scenario is read");
  return entry->make(params ? *params : ParamValues::defaults(entry->params), limits);
}

}  // namespace rlsim
