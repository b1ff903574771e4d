// A policy that cannot run a scenario says so at the field that chose it: the `name` of the
// policy block (or the --set that set it), not the start of the file.
#include <catch2/catch.hpp>

#include "sim/engine/simulation.h"
#include "tests/sim/sim_test_support.h"

using namespace rlsim;
using Catch::Matchers::Contains;

namespace {
// One pool for both phases: only colocated (and labels) can run it.
const char* kOnePool = R"(
model: qwen3-8b
cluster:
  pools:
    - {name: gpu, gpu: H800, nodes: 1}
  links:
    - {between: [agents, gpu], bandwidth: 200Gbps}
    - {between: [dataplane, gpu], bandwidth: 200Gbps}
workload: {prompts_per_step: 8, samples_per_prompt: 3}
training: {mini_batches: 2}
policy:
  name: overlap
)";

InputError check_error(const Scenario& s) {
  try {
    check_policy(s);
  } catch (const InputError& e) {
    return e;
  }
  FAIL("expected an InputError");
  return InputError({}, "");
}
}  // namespace

TEST_CASE("a policy that needs two pools points at policy.name") {
  for (const std::string policy : {"overlap", "streaming", "disaggregated"}) {
    const Scenario s = test::load_inline("one-pool", kOnePool, {"policy.name=" + policy}).scenario;
    const InputError e = check_error(s);
    CHECK(e.where().file == "--set policy.name=" + policy);
    CHECK_THAT(e.message(), Contains("policy '" + policy + "'"));
  }
  const Scenario s = test::load_inline("one-pool", kOnePool).scenario;
  const InputError e = check_error(s);
  CHECK(e.where().line == 12);
  CHECK(e.where().column == 9);
  CHECK_NOTHROW(check_policy(test::load_inline("one-pool", kOnePool, {"policy.name=colocated"}).scenario));
}

TEST_CASE("streaming's mini-batch check points at policy.name too") {
  const Scenario s =
      test::load_inline("streaming", std::string(test::kTwoPools) +
                                         "training: {mini_batches: 3}\npolicy: {name: streaming}\n")
          .scenario;
  const InputError e = check_error(s);
  CHECK(e.where().line == 13);
  CHECK_THAT(e.message(), Contains("training.mini_batches (3)"));
}
