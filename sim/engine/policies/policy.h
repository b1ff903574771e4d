// Policy: the extension point for orchestration — how rollout, weight sync and training are laid
// out in time. A policy's `run` executes inside the orchestrator actor: it may block on SimGrid
// activities, spawn actors, and must record every GPU's time on the timeline (busy or wait with a
// cause) so metrics add up. Implementations live in sim/engine/policies/ and register by name.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/engine/rl_context.h"

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

struct PolicyEntry {
  std::string name;
  std::string description;
  std::function<std::unique_ptr<Policy>()> make;
};

bool register_policy(PolicyEntry entry);
/// Registered policies, by name.
std::vector<PolicyEntry> registered_policies();
/// The policy `name`; asserts it exists (the scenario loader checks names).
std::unique_ptr<Policy> make_policy(const std::string& name);

}  // namespace rlsim

#define RLSIM_REGISTER_POLICY(Type, name, description)                                                 \
  static const bool rlsim_policy_registered_##Type = ::rlsim::register_policy(                       \
      {name, description, []() -> std::unique_ptr<::rlsim::Policy> { return std::make_unique<Type>(); }})
