// LeastLoadedRouter: tracks calls outstanding per instance and picks the instance with the fewest
// (lowest index on ties). Shared by `least_loaded` and as the fallback of `prefix_aware`.
#pragma once

#include <vector>

#include "sim/engine/routers/router.h"

namespace rlsim {

class LeastLoadedRouter : public Router {
 public:
  explicit LeastLoadedRouter(int instances) : outstanding_(static_cast<size_t>(instances), 0) {}
  int route(const LlmRequest& request) override;
  void on_finish(const LlmRequest& request) override;

 protected:
  int least_loaded() const;
  void count(int instance) { ++outstanding_[static_cast<size_t>(instance)]; }

 private:
  std::vector<int> outstanding_;
};

}  // namespace rlsim
