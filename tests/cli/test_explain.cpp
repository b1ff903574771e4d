// `rlsim explain`: the field reference gathered from the loaders' own declarations — a field's
// meaning, unit, default (the struct initialiser's), range and owning registry entry; every key of
// every bundled scenario explained; unknown fields exit 2 with suggestions; and
// docs/scenario-reference.md current with the generator.
#include <catch2/catch.hpp>
#include <functional>
#include <set>

#include "models/units.h"
#include "sim/scenario/plugins.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/yaml_reader.h"
#include "tests/cli/cli_support.h"
#include "tools/cli/field_reference.h"

using namespace rlsim;
using namespace rlsim::test;
using Catch::Matchers::Contains;

namespace {

const FieldReference& reference() {
  static const FieldReference gathered = gather_field_reference(RLSIM_TEST_SOURCE_DIR);
  return gathered;
}

const FieldDoc* find_field(const std::string& path) {
  for (const auto& field : reference().fields) {
    if (field.path == path) return &field;
  }
  return nullptr;
}

bool has_fields_under(const std::string& path) {
  for (const auto& field : reference().fields) {
    if (field.path.rfind(path + ".", 0) == 0) return true;
  }
  return false;
}

/// Every key of `node` at `path` that the reference lacks; a distribution's insides and the
/// values of a mapping without declared fields (a sweep grid's paths) are not fields.
void missing_keys(const YAML::Node& node, const std::string& path, const std::string& file,
                  std::vector<std::string>& missing) {
  if (node.IsSequence()) {
    for (const auto& item : node) missing_keys(item, path + "[]", file, missing);
    return;
  }
  if (!node.IsMap()) return;
  for (const auto& item : node) {
    const std::string child = (path.empty() ? "" : path + ".") + item.first.Scalar();
    const FieldDoc* field = find_field(child);
    if (!field) {
      missing.push_back(file + ": " + child);
      continue;
    }
    if (field->type != "distribution" && has_fields_under(child))
      missing_keys(item.second, child, file, missing);
  }
}

}  // namespace

TEST_CASE("explain prints a field's meaning, unit, default and range from the loader's declaration") {
  const CliResult r = run_rlsim("explain training.sequence_tokens");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("training.sequence_tokens\n") && Contains("tokens per training sequence"));
  CHECK_THAT(r.out, Contains("unit      tokens"));
  // The default is the struct initialiser's, not a copy of it.
  CHECK_THAT(r.out, Contains("default   " + format_number(TrainingSpec{}.sequence_tokens) + "\n"));
  CHECK_THAT(r.out, Contains("range     1 to ") && Contains("read by   kind rl"));
}

TEST_CASE("explain names the registry entries that read a plug-in's parameter") {
  const FieldDoc* staleness = find_field("policy.max_staleness");
  REQUIRE(staleness != nullptr);
  std::set<std::string> expected;
  for (const auto& entry : PolicyRegistry::instance().entries()) {
    if (declares(entry.params, "max_staleness")) expected.insert("policy " + entry.name);
  }
  REQUIRE(!expected.empty());
  CHECK(staleness->owners == expected);
  const FieldDoc* name = find_field("policy.name");
  REQUIRE(name != nullptr);
  for (const auto& entry : PolicyRegistry::instance().entries())
    CHECK_THAT(name->range, Contains(entry.name));
}

TEST_CASE("every field has a meaning and a default that does not depend on the scenario") {
  REQUIRE(reference().fields.size() > 50);
  for (const auto& field : reference().fields) {
    INFO(field.path);
    CHECK(!field.help.empty());
    CHECK(!field.default_text.empty());
    CHECK(!field.owners.empty());
  }
  CHECK(reference().conflicts == std::vector<std::string>{});
}

TEST_CASE("every key of every bundled scenario is in the reference, a distribution as one field") {
  std::vector<std::string> missing;
  for (const auto& file : reference().sources) {
    missing_keys(YAML::LoadFile(std::string(RLSIM_TEST_SOURCE_DIR) + "/" + file), "", file, missing);
  }
  CHECK(missing == std::vector<std::string>{});
  const FieldDoc* prompt = find_field("workload.prompt_tokens");
  REQUIRE(prompt != nullptr);
  CHECK(prompt->type == "distribution");
  CHECK(!has_fields_under("workload.prompt_tokens"));
  // Fields read on only some paths are declared whichever path the bundled files take.
  CHECK(find_field("workload.trajectories") != nullptr);
}

TEST_CASE("explain takes list items by index or without one, and a section lists its fields") {
  const CliResult indexed = run_rlsim("explain cluster.pools.0.nodes");
  const CliResult bare = run_rlsim("explain cluster.pools.nodes");
  REQUIRE(indexed.exit_code == 0);
  CHECK_THAT(indexed.out, Contains("cluster.pools[].nodes\n"));
  CHECK(bare.out == indexed.out);
  const CliResult section = run_rlsim("explain colocation");
  REQUIRE(section.exit_code == 0);
  CHECK_THAT(section.out,
             Contains("colocation.host_bandwidth\n") && Contains("colocation.optimizer_bytes_per_param\n"));
}

TEST_CASE("explain of an unknown field exits 2 naming the nearest fields") {
  const CliResult typo = run_rlsim("explain training.sequence_token");
  CHECK(typo.exit_code == 2);
  CHECK_THAT(typo.err, Contains("unknown scenario field 'training.sequence_token'") &&
                           Contains("did you mean 'training.sequence_tokens'?"));
  const CliResult leaf = run_rlsim("explain sequence_tokens");
  CHECK(leaf.exit_code == 2);
  CHECK_THAT(leaf.err, Contains("did you mean training.sequence_tokens?"));
  CHECK(typo.out.empty());
}

TEST_CASE("docs/scenario-reference.md is what `rlsim explain --markdown` prints") {
  const CliResult r = run_rlsim("explain --markdown");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Contains("| `training.sequence_tokens` |"));
  INFO("regenerate: build/rlsim explain --markdown > docs/scenario-reference.md");
  CHECK(r.out == slurp(std::string(RLSIM_TEST_SOURCE_DIR) + "/docs/scenario-reference.md"));
}
