// Policy: the extension point for orchestration — how rollout, weight sync and training are laid
// out in time. A policy's `run` executes inside the orchestrator actor: it may block on SimGrid
// activities, spawn actors, and must record every GPU's time on the timeline (busy or wait with a
// cause) so metrics add up. Implementations live in sim/engine/policies/ and register by name,
// with the parameters they read from the scenario's `policy:` block, in one line of their own file:
//   RLSIM_REGISTER_POLICY(OverlapPolicy, "overlap", "description", max_staleness_param(), ...);
// A policy with parameters has a constructor taking the ParamValues read for it.
#pragma once

#include <memory>

#include "sim/engine/rl_context.h"
#include "sim/scenario/plugins.h"

namespace rlsim {

class Policy {
 public:
  virtual ~Policy() = default;
  /// Rejects scenarios this policy cannot run (InputError at the offending field); default: none.
  virtual void check(const Scenario& scenario) const { (void)scenario; }
  /// Simulates all steps of the scenario.
  virtual void run(RlContext& context) = 0;
  /// Whether every GPU belongs to one job, so that any fault stops all of them (fault_state.h).
  virtual bool single_job() const { return false; }
};

/// The policy the scenario chose, with its parameters; InputError at `spec.where` for an unknown name.
inline std::unique_ptr<Policy> make_policy(const PolicySpec& spec) {
  return PolicyRegistry::instance().make(spec.name, spec.params, spec.where, "policy");
}

}  // namespace rlsim

/// RLSIM_REGISTER_POLICY(Type, "name", "description", ParamSpec...): the ParamSpecs are its schema.
#define RLSIM_REGISTER_POLICY(Type, name, description, ...) \
  RLSIM_REGISTRY_ADD(::rlsim::PolicyRegistry, Type, name, description, ::rlsim::ParamSchema{__VA_ARGS__})
