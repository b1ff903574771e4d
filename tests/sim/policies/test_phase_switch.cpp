// What a colocated GPU's switch between training and rollout costs: its optimizer state over the
// host link (its ZeRO share of it), and to rollout the inference weights reloaded too.
#include <catch2/catch.hpp>

#include "models/arch_params.h"
#include "sim/engine/policies/phase_switch.h"
#include "tests/sim/sim_test_support.h"

using namespace rlsim;
using namespace rlsim::test;

TEST_CASE("a colocated switch moves the GPU's ZeRO share of the optimizer state, not the whole replica's") {
  const Scenario zero3 = load_inline("switch-zero3", kColocatedPool,
                                     {"training.sharding=zero3", "colocation.host_bandwidth=20GBps"})
                             .scenario;
  const Scenario none = load_inline("switch-none", kColocatedPool,
                                    {"training.sharding=none", "colocation.host_bandwidth=20GBps"})
                            .scenario;
  const PhaseSwitchCosts sharded = phase_switch_costs(zero3);
  const PhaseSwitchCosts whole = phase_switch_costs(none);
  // 8 GPUs at tp 1: dp 8, so each holds an eighth of the 12 bytes per parameter.
  CHECK(sharded.to_train_s == Approx(total_params(zero3.model) * 12.0 / 8.0 / 20e9));
  CHECK(whole.to_train_s == Approx(8.0 * sharded.to_train_s));
  // Back to rollout: the same optimizer bytes out, and the inference weights reloaded.
  CHECK(sharded.to_rollout_s > sharded.to_train_s);
  CHECK(whole.to_rollout_s - whole.to_train_s == Approx(sharded.to_rollout_s - sharded.to_train_s));
}
