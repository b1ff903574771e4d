// The sweep manifest (DIR/sweep.json) in process: written and read back unchanged, claimed again by
// the same sweep (a resume or another shard), and refused to a different sweep, so a resume never
// mixes rows of two grids; a folder without or with a broken manifest is an input error.
#include <catch2/catch.hpp>
#include <fstream>

#include "models/input_error.h"
#include "tests/cli/cli_support.h"
#include "tools/sweep/sweep_manifest.h"

using namespace rlsim;
using rlsim::test::scratch_dir;
using rlsim::test::slurp;

namespace {

SweepManifest step3_manifest() {
  SweepManifest m;
  m.scenario = "scenarios/afd-step3.yaml";
  m.kind = "afd";
  m.sets = {"cluster.pools.ffn.gpu=H800"};
  m.seed = 7;
  m.axes = {{"afd.batch", {"512", "1024"}}, {"cluster.nic.bandwidth", {"200Gbps", "100Gbps"}}};
  m.points = 4;
  m.header = {"point", "afd.batch", "cluster.nic.bandwidth", "tpot_s"};
  return m;
}

}  // namespace

TEST_CASE("a manifest survives JSON both ways, with and without a seed") {
  SweepManifest m = step3_manifest();
  for (int pass = 0; pass < 2; ++pass) {
    const SweepManifest back = SweepManifest::from_json(m.to_json());
    CHECK(back.scenario == m.scenario);
    CHECK(back.kind == m.kind);
    CHECK(back.sets == m.sets);
    CHECK(back.seed == m.seed);
    REQUIRE(back.axes.size() == m.axes.size());
    for (size_t k = 0; k < m.axes.size(); ++k) {
      CHECK(back.axes[k].path == m.axes[k].path);
      CHECK(back.axes[k].values == m.axes[k].values);
    }
    CHECK(back.points == m.points);
    CHECK(back.header == m.header);
    CHECK(back.to_json() == m.to_json());
    m.seed.reset();
  }
  CHECK(m.to_json()["seed"].is_null());
}

TEST_CASE("claiming a sweep folder writes sweep.json once and accepts the same sweep again") {
  const auto dir = scratch_dir("manifest-claim") / "sweep";
  const SweepManifest m = step3_manifest();
  claim_sweep_dir(dir, m);  // creates the folder
  const std::string written = slurp(manifest_path(dir));
  CHECK(written == m.to_json().dump(2) + "\n");
  CHECK(read_sweep_manifest(dir).to_json() == m.to_json());
  claim_sweep_dir(dir, m);  // a resume, or another shard of the same sweep
  CHECK(slurp(manifest_path(dir)) == written);
}

TEST_CASE("a folder holding another sweep is refused, whatever differs") {
  const auto dir = scratch_dir("manifest-other") / "sweep";
  claim_sweep_dir(dir, step3_manifest());
  const std::string message =
      manifest_path(dir).string() +
      ":1:1: error: this folder holds another sweep (scenario "
      "'scenarios/afd-step3.yaml', 4 points); pick another --out or remove the folder";
  SweepManifest other_values = step3_manifest();
  other_values.axes[0].values = {"512", "2048"};
  CHECK_THROWS_WITH(claim_sweep_dir(dir, other_values), message);
  SweepManifest other_seed = step3_manifest();
  other_seed.seed = 8;
  CHECK_THROWS_WITH(claim_sweep_dir(dir, other_seed), message);
  SweepManifest other_columns = step3_manifest();
  other_columns.header.push_back("usd_per_1m_tokens");
  CHECK_THROWS_WITH(claim_sweep_dir(dir, other_columns), message);
  CHECK(read_sweep_manifest(dir).to_json() == step3_manifest().to_json());  // left as it was
}

TEST_CASE("reading a folder without a manifest, or with a broken one, is an input error") {
  const auto dir = scratch_dir("manifest-missing");
  CHECK_THROWS_WITH(read_sweep_manifest(dir),
                    manifest_path(dir).string() +
                        ": error: no sweep manifest here: is this a folder written by rlsim sweep?");
  std::ofstream(manifest_path(dir)) << "{\"scenario\": \"s.yaml\"}";
  CHECK_THROWS_WITH(read_sweep_manifest(dir), Catch::StartsWith(manifest_path(dir).string() +
                                                                ":1:1: error: malformed sweep manifest: "));
}

TEST_CASE("a manifest whose point count is not its grid's, or whose axis has no values, is refused") {
  const auto dir = scratch_dir("manifest-points");
  SweepManifest m = step3_manifest();
  claim_sweep_dir(dir, m);
  CHECK(read_sweep_manifest(dir).points == 4);
  // A merge sizes its work by `points`: 2^32 + 2 of them ran out of memory (exit 1) before.
  for (const long points : {4294967298L, -1L, 0L, 5L}) {
    nlohmann::json edited = m.to_json();
    edited["points"] = points;
    std::ofstream(manifest_path(dir)) << edited.dump();
    CHECK_THROWS_WITH(read_sweep_manifest(dir), manifest_path(dir).string() +
                                                    ":1:1: error: malformed sweep manifest: 'points' is " +
                                                    std::to_string(points) + " but its axes make 4");
  }
  nlohmann::json no_values = m.to_json();
  no_values["axes"][0]["values"] = nlohmann::json::array();
  std::ofstream(manifest_path(dir)) << no_values.dump();
  CHECK_THROWS_WITH(read_sweep_manifest(dir), Catch::Contains("axis 'afd.batch' has no values"));
}
