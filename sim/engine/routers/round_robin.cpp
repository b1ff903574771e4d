// `round_robin`: calls go to instances in turn, whatever their load.
#include "sim/engine/routers/router.h"

namespace rlsim {
namespace {

class RoundRobinRouter : public Router {
 public:
  explicit RoundRobinRouter(int instances) : instances_(instances) {}
  int route(const LlmRequest&) override {
    // The next available instance in turn (the next one at all when none is available).
    for (int tries = 0; tries < instances_; ++tries) {
      const int chosen = static_cast<int>(next_++ % instances_);
      if (available(chosen)) return chosen;
    }
    return static_cast<int>(next_++ % instances_);
  }

 private:
  int instances_;
  long next_ = 0;
};

}  // namespace
RLSIM_REGISTER_ROUTER(RoundRobinRouter, "round_robin", "instances in turn, regardless of load");
}  // namespace rlsim
