// Router: the extension point that picks the inference instance for each LLM call. Contract:
// `route` is called in simulation order, once per call, and must return an index in
// [0, instances); `on_finish` is called when that call's reply leaves the instance. Routers keep
// only their own bookkeeping (no SimGrid calls). An instance taken away from rollout (label
// scheduling, a fault) is marked unavailable; routers pick an available one while any is.
// Implementations live in sim/engine/routers/ and register by name; `rlsim list routers` shows them.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/engine/request.h"

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

 private:
  std::vector<int> unavailable_;  ///< instance indices not taking calls, sorted
};

struct RouterEntry {
  std::string name;
  std::string description;
  std::function<std::unique_ptr<Router>(int instances)> make;
};

bool register_router(RouterEntry entry);
std::vector<RouterEntry> registered_routers();
std::vector<std::string> router_names();
/// The router `name` over `instances` instances; asserts the name exists (the loader checks it).
std::unique_ptr<Router> make_router(const std::string& name, int instances);

}  // namespace rlsim

#define RLSIM_REGISTER_ROUTER(Type, name, description)                                                  \
  static const bool rlsim_router_registered_##Type = ::rlsim::register_router(                         \
      {name, description, [](int instances) -> std::unique_ptr<::rlsim::Router> { return std::make_unique<Type>(instances); }})
