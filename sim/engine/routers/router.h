// Router: the extension point that picks the inference instance for each LLM call. Contract:
// `route` is called in simulation order, once per call, and must return an index in
// [0, instances); `on_finish` is called when that call's reply leaves the instance. Routers keep
// only their own bookkeeping (no SimGrid calls). An instance taken away from rollout (label
// scheduling, a fault) is marked unavailable; routers pick an available one while any is.
// Implementations live in sim/engine/routers/ and register by name, with the parameters they read
// from `rollout.router: {name: x, ...}`, in one line of their own file:
//   RLSIM_REGISTER_ROUTER(RoundRobinRouter, "round_robin", "description", ParamSpec...);
// A router is constructed from (ParamValues, instances), or from (instances) when it takes no
// parameters. `rlsim list routers` shows them.
#pragma once

#include <memory>
#include <vector>

#include "sim/engine/request.h"
#include "sim/scenario/plugins.h"

namespace rlsim {

class Router {
 public:
  virtual ~Router() = default;
  virtual int route(const LlmRequest& request) = 0;
  virtual void on_finish(const LlmRequest& request) { (void)request; }

  /// Marks `instance` as taking calls or not (all take calls until told otherwise).
  void set_available(int instance, bool available);
  /// Whether `instance` takes calls.
  bool available(int instance) const;

 protected:
  /// Called by set_available when `instance` starts or stops taking calls.
  virtual void on_availability(int instance, bool available) {
    (void)instance;
    (void)available;
  }

 private:
  std::vector<int> unavailable_;  ///< instance indices not taking calls, sorted
};

/// The router the scenario chose over `instances` instances; InputError at `spec.where` when unknown.
inline std::unique_ptr<Router> make_router(const PluginSpec& spec, int instances) {
  return RouterRegistry::instance().make(spec.name, spec.params, spec.where, "router", instances);
}

}  // namespace rlsim

/// RLSIM_REGISTER_ROUTER(Type, "name", "description", ParamSpec...): the ParamSpecs are its schema.
#define RLSIM_REGISTER_ROUTER(Type, name, description, ...) \
  RLSIM_REGISTRY_ADD(::rlsim::RouterRegistry, Type, name, description, ::rlsim::ParamSchema{__VA_ARGS__})
