// A scenario that asks for more than a run can hold is refused before it runs, at the field to
// change; one just inside every limit loads.
#include <catch2/catch.hpp>

#include "sim/scenario/resource_limits.h"
#include "tests/sim/sim_test_support.h"

using namespace rlsim;

TEST_CASE("prompts × samples past the limit is refused at prompts_per_step, without overflowing") {
  // 1,000,000 × 4,096 overflows a 32-bit int: the product must be computed wide and refused.
  const InputError e = test::load_error(
      test::kTwoPools, {"workload.prompts_per_step=1000000", "workload.samples_per_prompt=4096"});
  CHECK_THAT(e.what(), Catch::Contains("prompts_per_step") && Catch::Contains("4096000000 trajectories"));
}

TEST_CASE("a mean of a million turns per trajectory is refused at turns") {
  const InputError e = test::load_error(test::kTwoPools, {"workload.turns=1000000"});
  CHECK_THAT(e.what(), Catch::Contains("turns") && Catch::Contains("LLM calls per trajectory"));
}

TEST_CASE("a run of too many LLM calls is refused and the limit itself is allowed") {
  const LoadedScenario loaded = test::load_inline("ok", test::kTwoPools);
  YAML::Node resolved(YAML::NodeType::Map);
  const YamlSource source = load_yaml_text(test::kTwoPools, "inline.yaml");
  YamlReader root(source, source.root, "", resolved);
  const YamlReader workload = root.map("workload");
  const YamlReader cluster = root.map("cluster");
  // 2 prompts × 8 samples × 1 turn × 3 steps = 48 calls on 16 GPUs.
  ResourceLimits limits;
  limits.llm_calls = 48;
  limits.gpus = 16;
  CHECK_NOTHROW(check_resource_limits(loaded.scenario, workload, cluster, limits));
  limits.llm_calls = 47;
  CHECK_THROWS_WITH(check_resource_limits(loaded.scenario, workload, cluster, limits),
                    Catch::Contains("about 48 LLM calls"));
  limits.llm_calls = 48;
  limits.gpus = 15;
  CHECK_THROWS_WITH(check_resource_limits(loaded.scenario, workload, cluster, limits),
                    Catch::Contains("16 GPUs") && Catch::Contains("inline.yaml:"));
}

TEST_CASE("a context limit not above the prompt is refused as the run would generate nothing") {
  const InputError e = test::load_error(test::kTwoPools, {"workload.max_context_tokens=10"});
  CHECK_THAT(e.what(), Catch::Contains("max_context_tokens") && Catch::Contains("mean prompt (512 tokens)"));
  CHECK_NOTHROW(test::load_inline("ok", test::kTwoPools, {"workload.max_context_tokens=513"}));
}
