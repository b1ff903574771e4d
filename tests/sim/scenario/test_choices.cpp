// Scenario choice tests: each closed choice of a scenario file (sim/scenario/choices.h, and the
// profile's collectives) round-trips through its name table, and YamlReader::choice_or<E> reads the
// enum, writes its name to resolved.yaml (the default too) and lists the names when one is wrong.
#include <catch2/catch.hpp>

#include "models/cost/profile.h"
#include "sim/scenario/choices.h"
#include "sim/scenario/yaml_reader.h"
#include "tests/sim/named_enum_checks.h"

using namespace rlsim;

TEST_CASE("every scenario choice round-trips through its name table with unique names") {
  test::check_name_table<ScenarioFileKind>();
  test::check_name_table<KvOverflow>();
  test::check_name_table<Preemption>();
  test::check_name_table<LaunchMode>();
  test::check_name_table<RlAlgorithm>();
  test::check_name_table<WeightSyncMethod>();
  test::check_name_table<FaultRecovery>();
  test::check_name_table<Collective>();
}

TEST_CASE("choice_or reads a named enum and records its name") {
  const YamlSource source = load_yaml_text("preemption: swap\n", "choices.yaml");
  YAML::Node resolved(YAML::NodeType::Map);
  YamlReader r(source, source.root, "", resolved);
  CHECK(r.choice_or("preemption", KvOverflow::recompute) == KvOverflow::swap);
  CHECK(r.choice_or("launch", LaunchMode::step) == LaunchMode::step);  // absent: the default
  CHECK(resolved["preemption"].as<std::string>() == enum_name(KvOverflow::swap));
  CHECK(resolved["launch"].as<std::string>() == enum_name(LaunchMode::step));
}

TEST_CASE("choice_or rejects a name outside the table, listing the table's names in order") {
  const YamlSource source = load_yaml_text("preemption: save_kv\n", "choices.yaml");
  YAML::Node resolved(YAML::NodeType::Map);
  YamlReader r(source, source.root, "", resolved);
  try {
    r.choice_or("preemption", KvOverflow::recompute);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.message() == "unknown value 'save_kv' for 'preemption'; valid values are: recompute, swap");
    CHECK(e.where().line == 1);
  }
}
