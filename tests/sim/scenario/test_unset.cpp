// `--unset a.b`: removing a field a scenario file sets, so its default holds or a `--set` may give
// one it excludes; applied before the `--set`s; a path that names nothing is refused at the
// argument, with the nearest field.
#include <catch2/catch.hpp>

#include "sim/scenario/scenario_loader.h"
#include "sim/scenario/yaml_reader.h"

using namespace rlsim;

namespace {

const char* kDocument = R"(
workload: {concurrency: 25, requests: 400}
cluster:
  pools:
    - {name: serve, gpu: H100, nic: 400Gbps}
)";

InputError unset_error(const std::string& path) {
  YamlSource source = load_yaml_text(kDocument, "s.yaml");
  try {
    remove_field(source, path);
  } catch (const InputError& e) {
    return e;
  }
  FAIL("expected an InputError for --unset " << path);
  return InputError({}, "");
}

}  // namespace

TEST_CASE("unset: removes a field of a mapping, through list items by name or index") {
  YamlSource source = load_yaml_text(kDocument, "s.yaml");
  remove_field(source, "workload.concurrency");
  CHECK_FALSE(source.root["workload"]["concurrency"]);
  CHECK(source.root["workload"]["requests"].as<int>() == 400);
  remove_field(source, "cluster.pools.serve.nic");
  CHECK_FALSE(source.root["cluster"]["pools"][0]["nic"]);
  CHECK(source.root["cluster"]["pools"][0]["gpu"].Scalar() == "H100");
  remove_field(source, "cluster.pools.0.gpu");
  CHECK_FALSE(source.root["cluster"]["pools"][0]["gpu"]);
  remove_field(source, "cluster");  // a whole block
  CHECK_FALSE(source.root["cluster"]);
}

TEST_CASE("unset: applied before --set, so the two together replace a field by one it excludes") {
  YamlSource source = load_yaml_text(kDocument, "s.yaml");
  LoadOptions options;
  options.overrides = {"workload.rate=2/s", "workload.concurrency=5"};
  options.unsets = {"workload.concurrency"};
  apply_load_overrides(source, options);
  CHECK(source.root["workload"]["concurrency"].as<int>() == 5);  // the --set, after the removal
  CHECK(source.root["workload"]["rate"].Scalar() == "2/s");
}

TEST_CASE("unset: a field the file does not set is refused at the argument") {
  const InputError typo = unset_error("workload.concurency");
  CHECK(typo.where().file == "--unset workload.concurency");
  CHECK(typo.message() ==
        "the scenario has no field 'workload.concurency' (did you mean 'workload.concurrency'?)");
  CHECK(unset_error("workload.rate").message() == "the scenario has no field 'workload.rate'");
  CHECK_THAT(unset_error("serve.tp").message(), Catch::Contains("no field 'serve'"));
  CHECK_THAT(unset_error("workload.requests.x").message(), Catch::Contains("is a single value"));
  CHECK_THAT(unset_error("cluster.pools.nope.nic").message(), Catch::Contains("names no item of the list"));
  CHECK_THAT(unset_error("cluster.pools.0").message(), Catch::Contains("an item of a list"));
  CHECK_THAT(unset_error("workload..requests").message(), Catch::Contains("empty component"));
  CHECK_THAT(unset_error("").message(), Catch::Contains("expected a field's path"));
}
