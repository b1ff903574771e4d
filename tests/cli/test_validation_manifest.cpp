// The validation manifest reader in process: every field read, paths resolved against the manifest's
// folder, `set` turned into --set overrides, and each kind of bad entry refused at its line and
// column; plus the bundled manifest, which must read cleanly and name only existing scenarios.
#include <catch2/catch.hpp>
#include <fstream>
#include <set>

#include "tests/cli/cli_support.h"
#include "tools/validation/validation_manifest.h"

using namespace rlsim;
using rlsim::test::scratch_dir;

namespace {

const char* kCase = R"(cases:
  - name: one
    scenario: s.yaml
    set: {afd.batch: 4096, cluster.pools.ffn.gpu: H800}
    metric: throughput.tokens_per_s_per_gpu
    published: 4039
    unit: tokens/s per GPU
    source: a paper
    setup: a setup
    assumptions: [first, second]
    tolerance: 0.15
    role: judge
    requires: serve
    known_gap: not yet
    gap_error: -0.3
    first_run_error: -0.35
)";

/// A folder holding s.yaml and the manifest `text`; returns the manifest's path.
std::string manifest_in_folder(const std::string& name, const std::string& text) {
  const auto dir = scratch_dir("validation-manifest-" + name);
  std::ofstream(dir / "s.yaml") << "kind: afd\n";
  std::ofstream(dir / "cases.yaml") << text;
  return (dir / "cases.yaml").string();
}

std::string error_of(const std::string& name, const std::string& text) {
  try {
    read_validation_manifest(manifest_in_folder(name, text));
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("a validation case is read field by field, its scenario beside the manifest") {
  const std::string path = manifest_in_folder("full", kCase);
  const ValidationManifest m = read_validation_manifest(path);
  REQUIRE(m.cases.size() == 1);
  const ValidationCase& c = m.cases.front();
  CHECK(c.name == "one");
  CHECK(c.scenario == (std::filesystem::path(path).parent_path() / "s.yaml").string());
  CHECK(c.sets == std::vector<std::string>{"afd.batch=4096", "cluster.pools.ffn.gpu=H800"});
  CHECK(c.metric == "throughput.tokens_per_s_per_gpu");
  CHECK(c.published == 4039);
  CHECK(c.unit == "tokens/s per GPU");
  CHECK(c.source == "a paper");
  CHECK(c.setup == "a setup");
  CHECK(c.assumptions == std::vector<std::string>{"first", "second"});
  CHECK(c.tolerance == Approx(0.15));
  CHECK(c.role == "judge");
  CHECK(c.requires_kind == "serve");
  CHECK(c.known_gap == "not yet");
  CHECK(c.gap_error == Approx(-0.3));
  CHECK(c.first_run_error == Approx(-0.35));
  CHECK(c.metric_where.line == 5);
}

TEST_CASE("optional fields of a validation case default to none") {
  std::string text = replaced(kCase, "    requires: serve\n", "");
  text = replaced(text, "    known_gap: not yet\n    gap_error: -0.3\n    first_run_error: -0.35\n", "");
  text = replaced(text, "    set: {afd.batch: 4096, cluster.pools.ffn.gpu: H800}\n", "");
  const ValidationCase c = read_validation_manifest(manifest_in_folder("optional", text)).cases.front();
  CHECK(c.sets.empty());
  CHECK(c.requires_kind.empty());
  CHECK(c.known_gap.empty());
  CHECK(!c.gap_error);
  CHECK(!c.first_run_error);
}

TEST_CASE("bad validation cases are refused at FILE:LINE:COL") {
  CHECK_THAT(error_of("missing", replaced(kCase, "    metric: throughput.tokens_per_s_per_gpu\n", "")),
             Catch::Contains("cases.yaml:2:") && Catch::Contains("metric'"));
  CHECK_THAT(error_of("role", replaced(kCase, "role: judge", "role: tune")),
             Catch::Contains("cases.yaml:12:") && Catch::Contains("'calibrate'"));
  CHECK_THAT(error_of("tolerance", replaced(kCase, "tolerance: 0.15", "tolerance: 0")),
             Catch::Contains("cases.yaml:11:") && Catch::Contains("above 0"));
  CHECK_THAT(error_of("published", replaced(kCase, "published: 4039", "published: 0")),
             Catch::Contains("cases.yaml:6:"));
  CHECK_THAT(error_of("scenario", replaced(kCase, "scenario: s.yaml", "scenario: gone.yaml")),
             Catch::Contains("cases.yaml:3:") && Catch::Contains("gone.yaml"));
  CHECK_THAT(error_of("set", replaced(kCase, "{afd.batch: 4096, cluster.pools.ffn.gpu: H800}",
                                      "{afd.batch: [1, 2]}")),
             Catch::Contains("cases.yaml:4:") && Catch::Contains("'afd.batch'"));
  CHECK_THAT(error_of("typo", replaced(kCase, "    unit:", "    units:")),
             Catch::Contains("cases.yaml:") && Catch::Contains("did you mean 'unit'"));
  // A known gap records the error it was marked at, and only a known gap has one.
  CHECK_THAT(error_of("gap-error", replaced(kCase, "    gap_error: -0.3\n", "")),
             Catch::Contains("cases.yaml:14:") && Catch::Contains("add gap_error"));
  CHECK_THAT(error_of("gap-alone", replaced(kCase, "    known_gap: not yet\n", "")),
             Catch::Contains("cases.yaml:14:") && Catch::Contains("gap_error belongs to a known_gap"));
  const std::string twice = std::string(kCase) + std::string(kCase).substr(std::string("cases:\n").size());
  CHECK_THAT(error_of("twice", twice),
             Catch::Contains("cases.yaml:17:") && Catch::Contains("a second case named 'one'"));
}

TEST_CASE("the bundled validation manifest reads cleanly: unique names, existing scenarios, a source each") {
  const ValidationManifest m =
      read_validation_manifest(std::string(RLSIM_TEST_SOURCE_DIR) + "/scenarios/validation/cases.yaml");
  REQUIRE(m.cases.size() >= 12);
  std::set<std::string> sources;
  for (const auto& c : m.cases) {
    if (c.op)
      CHECK(c.scenario.empty());
    else
      CHECK(std::filesystem::is_regular_file(c.scenario));
    CHECK_FALSE(c.source.empty());
    CHECK_FALSE(c.assumptions.empty());
    sources.insert(c.source.substr(0, c.source.find(',')));
  }
  CHECK(sources.size() >= 3);
}

namespace {

const char* kOpCase = R"(cases:
  - name: gemm
    op: {hardware: H800, gemm: {m: 64, n: 2112, k: 7168, groups: 2, dtype: fp8}}
    metric: tflops
    published: 206
    unit: TFLOPS
    source: a table
    setup: a kernel
    assumptions: [one]
    tolerance: 0.15
    role: judge
)";

}  // namespace

TEST_CASE("an op case names a card and a GEMM instead of a scenario") {
  const ValidationCase c = read_validation_manifest(manifest_in_folder("op", kOpCase)).cases.front();
  REQUIRE(c.op);
  CHECK(c.scenario.empty());
  CHECK(c.op->hardware == "H800");
  CHECK(c.op->op.op_class == OpClass::grouped_gemm);
  CHECK(c.op->op.gemm.m == 64);
  CHECK(c.op->op.gemm.n == 2112);
  CHECK(c.op->op.gemm.k == 7168);
  CHECK(c.op->op.gemm.groups == 2);
  CHECK(c.op->op.compute == Precision::fp8);
  CHECK(c.op->op.flops == 2.0 * 2 * 64 * 2112 * 7168);
}

TEST_CASE("bad op cases are refused at FILE:LINE:COL") {
  CHECK_THAT(error_of("op-card", replaced(kOpCase, "hardware: H800", "hardware: H900")),
             Catch::Contains("cases.yaml:3:") && Catch::Contains("H900"));
  CHECK_THAT(error_of("op-dtype", replaced(kOpCase, "dtype: fp8", "dtype: fp9")),
             Catch::Contains("cases.yaml:3:") && Catch::Contains("fp9"));
  CHECK_THAT(error_of("op-metric", replaced(kOpCase, "metric: tflops", "metric: serving.ttft_s.mean")),
             Catch::Contains("cases.yaml:4:") && Catch::Contains("'seconds' or 'tflops'"));
  CHECK_THAT(error_of("op-scenario", replaced(kOpCase, "    metric:", "    scenario: s.yaml\n    metric:")),
             Catch::Contains("cases.yaml:4:") && Catch::Contains("not both"));
  CHECK_THAT(error_of("op-set", replaced(kOpCase, "    metric:", "    set: {afd.batch: 2}\n    metric:")),
             Catch::Contains("cases.yaml:4:") && Catch::Contains("no scenario to override"));
  CHECK_THAT(error_of("op-m", replaced(kOpCase, "m: 64", "m: 0")), Catch::Contains("cases.yaml:3:"));
}
