// Reading plug-in parameters from YAML: defaults from the schema, errors at the parameter's own
// line and column, a key that belongs to another plug-in rejected where it is written, and the
// policy, router and cost-model blocks of a scenario read through their registries.
#include <catch2/catch.hpp>

#include "models/cost/roofline_cost_model.h"
#include "sim/scenario/param_reader.h"
#include "sim/scenario/plugins.h"
#include "tests/sim/sim_test_support.h"

using namespace rlsim;
using Catch::Matchers::Contains;

namespace {

const ParamSchema kSchema{ParamSpec::integer("depth", 4, 1, 8, "how deep"),
                          ParamSpec::quantity_of("pause", Quantity::duration, 0.5, "how long"),
                          ParamSpec::choice("mode", {"fast", "slow"}, "fast", "which way")};

}  // namespace

TEST_CASE("read_params fills in schema defaults and records them") {
  YamlSource source = load_yaml_text("block: {depth: 6}\n", "p.yaml");
  YAML::Node resolved(YAML::NodeType::Map);
  YamlReader root(source, source.root, "", resolved);
  YamlReader block = root.map("block");
  const ParamValues values = read_params(block, kSchema);
  block.finish();
  CHECK(values.integer("depth") == 6);
  CHECK(values.where("depth").line == 1);
  CHECK(values.number("pause") == 0.5);
  CHECK(values.text("mode") == "fast");
  CHECK(resolved["block"]["pause"].as<std::string>() == "500ms");
  CHECK(resolved["block"]["mode"].as<std::string>() == "fast");
}

TEST_CASE("a parameter out of range is an error at its own line and column") {
  YamlSource source = load_yaml_text("block:\n  mode: slow\n  depth: 12\n", "p.yaml");
  YamlReader root(source, source.root, "", YAML::Node(YAML::NodeType::Map));
  YamlReader block = root.map("block");
  try {
    read_params(block, kSchema);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.where().line == 3);
    CHECK(e.where().column == 10);
    CHECK_THAT(e.message(), Contains("depth"));
  }
}

TEST_CASE("a policy's parameters are its own: defaults, values and where they were written") {
  const Scenario plain = test::load_inline("plain", test::kTwoPools).scenario;
  CHECK(plain.policy.name == "disaggregated");
  CHECK_FALSE(plain.policy.params.has("max_staleness"));

  const LoadedScenario overlap = test::load_inline(
      "overlap", std::string(test::kTwoPools) + "policy:\n  name: overlap\n  max_staleness: 3\n");
  const PolicySpec& p = overlap.scenario.policy;
  CHECK(p.name == "overlap");
  CHECK(p.where.line == 13);
  CHECK(p.params.integer("max_staleness") == 3);
  CHECK(p.params.where("max_staleness").line == 14);
  CHECK(p.params.number("weight_swap") == 0.0);
  CHECK_THAT(overlap.resolved_yaml,
             Contains("policy:\n  name: overlap\n  max_staleness: 3\n  weight_swap: 0s\n"));
}

TEST_CASE("a policy parameter out of range is an error at its line, not the file's start") {
  const InputError e =
      test::load_error(std::string(test::kTwoPools) + "policy:\n  name: streaming\n  max_staleness: -1\n");
  CHECK(e.where().line == 14);
  CHECK(e.where().column == 18);
}

TEST_CASE("a key that belongs to another policy is rejected at its line, naming who takes it") {
  const InputError e =
      test::load_error(std::string(test::kTwoPools) + "policy:\n  name: disaggregated\n  max_staleness: 2\n");
  CHECK(e.where().line == 14);
  CHECK(e.where().column == 18);
  CHECK(e.message() ==
        "'max_staleness' is not a parameter of policy 'disaggregated', which takes none; it "
        "belongs to labels, overlap and streaming");
  // The same through --set, pointing at the argument that set it.
  const InputError set =
      test::load_error(test::kTwoPools, {"policy.name=colocated", "policy.weight_swap=2s"});
  CHECK(set.where().file == "--set policy.weight_swap=2s");
  // A key no policy takes is a misspelling.
  const InputError typo =
      test::load_error(std::string(test::kTwoPools) + "policy: {name: overlap, max_stalenes: 2}\n");
  CHECK_THAT(typo.message(), Contains("did you mean 'max_staleness'"));
}

TEST_CASE("a router is a name or a block with its name and parameters") {
  const Scenario named =
      test::load_inline("router", test::kTwoPools, {"rollout.router=round_robin"}).scenario;
  CHECK(named.rollout.router.name == "round_robin");
  const LoadedScenario block =
      test::load_inline("router", test::kTwoPools, {"rollout.router={name: prefix_aware}"});
  CHECK(block.scenario.rollout.router.name == "prefix_aware");
  CHECK_THAT(block.resolved_yaml, Contains("router:\n    name: prefix_aware\n"));
  const InputError e = test::load_error(test::kTwoPools, {"rollout.router=nearest"});
  CHECK_THAT(e.message(), Contains("least_loaded, prefix_aware, round_robin"));
}

TEST_CASE("the roofline's efficiencies are set in its cost_model block and checked there") {
  const Scenario s = test::load_inline("cost", std::string(test::kTwoPools) +
                                                   "cost_model:\n  name: roofline\n  bandwidth: 0.5\n")
                         .scenario;
  CHECK(s.cost_model.name == "roofline");
  CHECK(s.cost_model.params.number("bandwidth") == 0.5);
  CHECK(s.cost_model.params.number("gemm_compute") == RooflineEfficiency{}.gemm_compute);
  const InputError range =
      test::load_error(std::string(test::kTwoPools) + "cost_model:\n  name: roofline\n  bandwidth: 1.5\n");
  CHECK(range.where().line == 14);
  const InputError typo =
      test::load_error(std::string(test::kTwoPools) + "cost_model: {name: roofline, bandwith: 0.5}\n");
  CHECK_THAT(typo.message(), Contains("did you mean 'bandwidth'"));
}

TEST_CASE("run under another policy (rlsim compare), a file keeps the parameters that policy takes") {
  const std::string path = test::write_scenario(
      "switch", std::string(test::kTwoPools) + "policy: {name: overlap, max_staleness: 2}\n");
  LoadOptions options;
  options.data_dir = RLSIM_TEST_SOURCE_DIR;
  options.policy = "streaming";
  const Scenario streaming = load_scenario(path, options).scenario;
  CHECK(streaming.policy.name == "streaming");
  CHECK(streaming.policy.params.integer("max_staleness") == 2);
  options.policy = "disaggregated";
  const LoadedScenario disaggregated = load_scenario(path, options);
  CHECK(disaggregated.scenario.policy.name == "disaggregated");
  CHECK_THAT(disaggregated.resolved_yaml,
             Contains("policy:\n  name: disaggregated\n") && !Contains("max_staleness"));
}
