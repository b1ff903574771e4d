// `rlsim validation` end to end on a one-case manifest over the bundled afd-step3 scenario: a case
// outside its tolerance fails the run (exit 3), the same case with the simulated figure published
// passes, marked as a known gap it is listed but does not fail; a case needing an unregistered kind
// is skipped by name; a bad manifest or --only name is bad input (exit 2) with nothing written; an op
// case is priced as `rlsim cost gemm` prices it. DIR/record.csv holds each case's setup and verdict.
// The bundled cases themselves run as their own CTest (tests/CMakeLists.txt).
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_support.h"
#include "tools/sweep/sweep_csv.h"

using namespace rlsim;
using rlsim::test::run_rlsim;
using rlsim::test::scratch_dir;
using rlsim::test::slurp;

namespace {

/// A manifest with one case on the bundled afd-step3 scenario, publishing `published` tokens/s.
std::string step3_manifest(const std::string& name, const std::string& published,
                           const std::string& extra = "") {
  const auto dir = scratch_dir("validation-" + name);
  std::ofstream(dir / "cases.yaml") << "cases:\n"
                                       "  - name: step3-h20\n"
                                       "    scenario: "
                                    << RLSIM_TEST_SOURCE_DIR
                                    << "/scenarios/afd-step3.yaml\n"
                                       "    set: {afd.batch: 1024}\n"
                                       "    metric: throughput.tokens_per_s_per_gpu\n"
                                       "    published: "
                                    << published
                                    << "\n"
                                       "    unit: tokens/s per GPU\n"
                                       "    source: a test\n"
                                       "    setup: afd-step3 at batch 1024\n"
                                       "    assumptions: []\n"
                                       "    tolerance: 0.01\n"
                                       "    role: judge\n"
                                    << extra;
  return (dir / "cases.yaml").string();
}

std::vector<std::string> csv_row(const std::string& csv, size_t index) {
  std::stringstream lines(csv);
  std::string line;
  for (size_t i = 0; i <= index; ++i) std::getline(lines, line);
  return csv_cells(line);
}

}  // namespace

TEST_CASE("a case outside its tolerance fails the run and published at the simulated figure it passes") {
  const auto out = scratch_dir("validation-judged") / "out";
  const auto failing =
      run_rlsim("validation --cases '" + step3_manifest("fail", "100") + "' --out '" + out.string() + "'");
  INFO(failing.out << failing.err);
  CHECK(failing.exit_code == 3);
  CHECK_THAT(failing.out, Catch::Contains("FAIL: step3-h20"));
  const auto row = csv_row(slurp(out / "validation.csv"), 1);
  REQUIRE(row.size() == 9);
  CHECK(row[7] == "fail");
  const std::string simulated = row[4];
  CHECK(std::stod(simulated) > 100);

  const auto passing = run_rlsim("validation --cases '" + step3_manifest("pass", simulated) + "' --out '" +
                                 out.string() + "'");
  CHECK(passing.exit_code == 0);
  CHECK(csv_row(slurp(out / "validation.csv"), 1)[7] == "pass");
  // The record names the setup the case mirrors (afd-step3: step3 on H800 and H20) beside its verdict.
  const auto recorded = csv_row(slurp(out / "record.csv"), 1);
  REQUIRE(recorded.size() == 10);
  CHECK(recorded[0] == "step3-h20");
  CHECK(recorded[1] == "afd");
  CHECK(recorded[2] == "step3");
  CHECK(recorded[3] == "H20;H800");
  CHECK(recorded[6] == simulated);
  CHECK(recorded[9] == "pass");

  const auto gap =
      run_rlsim("validation --cases '" +
                step3_manifest("gap", "100", "    known_gap: a test gap\n    gap_error: 1000\n") +
                "' --out '" + out.string() + "'");
  CHECK(gap.exit_code == 0);
  CHECK_THAT(gap.out, Catch::Contains("known gap, not yet within tolerance: step3-h20") &&
                          Catch::Contains("a test gap"));
  // A known gap that grew more than 2 points past the error it was marked at fails the run.
  const auto grown =
      run_rlsim("validation --cases '" +
                step3_manifest("grown", "100", "    known_gap: a test gap\n    gap_error: 0.5\n") +
                "' --out '" + out.string() + "'");
  CHECK(grown.exit_code == 3);
  CHECK_THAT(grown.out, Catch::Contains("FAIL: step3-h20") && Catch::Contains("known gap grew from +50.0 %"));
}

TEST_CASE("a case needing an unregistered scenario kind is skipped by name, not run") {
  const auto out = scratch_dir("validation-skip") / "out";
  const auto result =
      run_rlsim("validation --cases '" + step3_manifest("skip", "100", "    requires: no-such-kind\n") +
                "' --out '" + out.string() + "'");
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("skipped: needs kind no-such-kind: step3-h20"));
  CHECK_FALSE(std::filesystem::exists(out / "step3-h20"));
}

TEST_CASE("a bad manifest or --only name is bad input, and nothing is written") {
  const auto out = scratch_dir("validation-bad") / "out";
  const std::string manifest = step3_manifest("bad", "100", "    role_typo: judge\n");
  const auto bad = run_rlsim("validation --cases '" + manifest + "' --out '" + out.string() + "'");
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains(manifest + ":13:") && Catch::Contains("role_typo"));
  const auto only = run_rlsim("validation --cases '" + step3_manifest("only", "100") +
                              "' --only nope --out '" + out.string() + "'");
  CHECK(only.exit_code == 2);
  CHECK_THAT(only.err, Catch::Contains("no case named 'nope'") && Catch::Contains("step3-h20"));
  CHECK_FALSE(std::filesystem::exists(out));
}

TEST_CASE("an op case is priced as rlsim cost prices the same GEMM, and judged like any case") {
  const auto dir = scratch_dir("validation-op");
  std::ofstream(dir / "cases.yaml") << "cases:\n"
                                       "  - name: gemm\n"
                                       "    op: {hardware: H800, gemm: {m: 512, n: 4096, k: 7168, groups: 2, "
                                       "dtype: fp8}}\n"
                                       "    metric: tflops\n"
                                       "    published: 1040\n"
                                       "    unit: TFLOPS\n"
                                       "    source: a test\n"
                                       "    setup: a grouped GEMM\n"
                                       "    assumptions: []\n"
                                       "    tolerance: 0.01\n"
                                       "    role: judge\n";
  const auto out = dir / "out";
  const auto result =
      run_rlsim("validation --cases '" + (dir / "cases.yaml").string() + "' --out '" + out.string() + "'");
  INFO(result.out << result.err);
  CHECK(result.exit_code == 3);  // rlsim's roofline is not within 1 % of it
  const auto metrics = nlohmann::json::parse(slurp(out / "gemm" / "metrics.json"));
  const auto cost =
      run_rlsim("cost gemm --hardware H800 --m 512 --n 4096 --k 7168 --groups 2 --dtype fp8 --json");
  REQUIRE(cost.exit_code == 0);
  const double seconds = nlohmann::json::parse(cost.out)["seconds"].get<double>();
  CHECK(metrics["seconds"].get<double>() == Approx(seconds).epsilon(1e-12));
  CHECK(metrics["tflops"].get<double>() ==
        Approx(2.0 * 2 * 512 * 4096 * 7168 / seconds / 1e12).epsilon(1e-12));
  CHECK(metrics["cost_model"] == "roofline");
  const auto row = csv_row(slurp(out / "validation.csv"), 1);
  REQUIRE(row.size() == 9);
  CHECK(std::stod(row[4]) == Approx(metrics["tflops"].get<double>()).epsilon(1e-3));
}

TEST_CASE(
    "validation near a scenario runs only its nearest cases, says which, and says when there are none") {
  const auto dir = scratch_dir("validation-near");
  const std::string op_case =
      "    metric: tflops\n    published: 1000\n    unit: TFLOPS\n    source: a test\n"
      "    setup: a GEMM\n    assumptions: []\n    tolerance: 0.01\n    role: judge\n    known_gap: a test\n"
      "    gap_error: -0.999\n";
  const std::string manifest =
      step3_manifest("near", "100",
                     "  - name: gemm-h800\n"
                     "    op: {hardware: H800, gemm: {m: 512, n: 4096, k: 7168}}\n" +
                         op_case +
                         "  - name: gemm-a100\n"
                         "    op: {hardware: A100, gemm: {m: 512, n: 4096, k: 7168}}\n" +
                         op_case);
  const std::string source = RLSIM_TEST_SOURCE_DIR;
  const auto near = [&](const std::string& scenario, const std::filesystem::path& out) {
    return run_rlsim("validation --cases '" + manifest + "' --near '" + source + "/scenarios/" + scenario +
                     "' --out '" + out.string() + "'");
  };

  // afd-step3 is step3 on H800 and H20: the step3 case alone shares model, card and kind.
  const auto same = near("afd-step3.yaml", dir / "same");
  INFO(same.out << same.err);
  CHECK(same.exit_code == 3);  // the step3 case is judged (and fails at 1 %)
  CHECK_THAT(same.out, Catch::Contains("1 of 3, sharing model step3 on one of H20, H800, kind afd"));
  CHECK_THAT(same.out, Catch::Contains("step3-h20"));
  CHECK_THAT(same.out, !Catch::Contains("gemm-h800"));

  // quickstart is qwen3-8b on H20 and H800 (rl): no case of its model or kind, so every case on
  // one of its cards.
  const auto cards = near("quickstart.yaml", dir / "cards");
  INFO(cards.out << cards.err);
  CHECK_THAT(cards.out, Catch::Contains("2 of 3, sharing card one of H20, H800"));
  CHECK_THAT(cards.out, Catch::Contains("gemm-h800"));
  CHECK_THAT(cards.out, !Catch::Contains("gemm-a100"));

  // serve-llama3-70b is llama-3-70b on H100: nothing near, nothing run or written.
  const auto none = near("serve-llama3-70b.yaml", dir / "none");
  INFO(none.out << none.err);
  CHECK(none.exit_code == 0);
  CHECK_THAT(none.out, Catch::Contains("no validation case shares model llama-3-70b or a card"));
  CHECK_FALSE(std::filesystem::exists(dir / "none"));

  // The scenario's --set overrides count: quickstart moved onto A100s shares only gemm-a100's card.
  const auto moved =
      run_rlsim("validation --cases '" + manifest + "' --near '" + source + "/scenarios/quickstart.yaml' " +
                "--set cluster.pools.rollout.gpu=A100 --set cluster.pools.train.gpu=A100 --out '" +
                (dir / "moved").string() + "'");
  INFO(moved.out << moved.err);
  CHECK_THAT(moved.out, Catch::Contains("1 of 3, sharing card A100"));
  CHECK_THAT(moved.out, Catch::Contains("gemm-a100"));

  const auto both = run_rlsim("validation --cases '" + manifest + "' --only step3-h20 --near '" + source +
                              "/scenarios/afd-step3.yaml'");
  CHECK(both.exit_code == 2);  // --near picks the cases itself
  CHECK(run_rlsim("validation --cases '" + manifest + "' --set model=llama-3-70b").exit_code ==
        2);  // --set needs --near
}

TEST_CASE("validation finds the bundled manifest from any folder") {
  const auto dir = scratch_dir("validation-elsewhere");
  const rlsim::test::CliResult r =
      rlsim::test::run_shell("cd '" + dir.string() + "' && '" + RLSIM_TEST_BINARY +
                             "' validation --only step3-afd-h800 --out '" + (dir / "out").string() + "'");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("scenarios/validation/cases.yaml") && Catch::Contains("step3-afd-h800"));
  CHECK(std::filesystem::exists(dir / "out" / "validation.csv"));
}
