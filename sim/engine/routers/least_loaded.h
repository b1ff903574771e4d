// LeastLoadedRouter: tracks calls outstanding per instance and picks the instance with the fewest
// (lowest index on ties). Shared by `least_loaded` and as the fallback of `prefix_aware`. Instances
// are kept ordered by (calls outstanding, index), so a pick costs O(log instances), not a scan.
#pragma once

#include <set>
#include <utility>
#include <vector>

#include "sim/engine/routers/router.h"

namespace rlsim {

class LeastLoadedRouter : public Router {
 public:
  explicit LeastLoadedRouter(int instances);
  int route(const LlmRequest& request) override;
  void on_finish(const LlmRequest& request) override;

 protected:
  int least_loaded() const;
  void count(int instance) { add(instance, +1); }
  void on_availability(int instance, bool available) override;

 private:
  using Load = std::pair<int, int>;  ///< (calls outstanding, instance index)
  void add(int instance, int calls);

  std::vector<int> outstanding_;
  std::set<Load> all_;        ///< every instance
  std::set<Load> available_;  ///< the instances taking calls
};

}  // namespace rlsim
