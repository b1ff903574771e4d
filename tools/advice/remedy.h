// Remedy: one kind of change the advisor may try on a scenario (a policy, a pool rebalance, more
// staleness, a larger batch, more agent cores), as the `--set` overrides that make it. Each remedy
// is one file registering itself with RLSIM_REGISTER_REMEDY; `rlsim run` simulates the trials of
// every registered remedy (measured_advice.h) and advises only what measured better.
#pragma once

#include <string>
#include <vector>

#include "models/registry/registry.h"
#include "sim/scenario/scenario.h"

namespace rlsim {

/// One change to try: what it is, in words, and the overrides that make it.
struct RemedyTrial {
  std::string remedy;             ///< the registered remedy's name
  std::string change;             ///< e.g. "policy overlap", "1 node from rollout to train"
  std::vector<std::string> sets;  ///< `--set` overrides, path=value
};

class Remedy {
 public:
  virtual ~Remedy() = default;
  /// The changes this remedy would try on `scenario` (none where it does not apply).
  virtual std::vector<RemedyTrial> trials(const Scenario& scenario) const = 0;
};

using RemedyRegistry = Registry<Remedy>;

/// Every registered remedy's trials on `scenario`, in registration order.
std::vector<RemedyTrial> remedy_trials(const Scenario& scenario);

}  // namespace rlsim

/// Registers remedy `Type` as `name`; `order` is the order its trials are tried in.
#define RLSIM_REGISTER_REMEDY(Type, name, description, order) \
  static const bool rlsim_remedy_registered_##Type =          \
      ::rlsim::RemedyRegistry::instance().add_type<Type>(name, description, ::rlsim::ParamSchema{}, order)
