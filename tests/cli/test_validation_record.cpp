// The validation record (tools/validation/validation_record.h): written and read back the same,
// bad rows refused at their line, and the line a run prints about its nearest validated cases —
// their count, verdicts and error range, or that none shares the setup's model or a card.
#include <catch2/catch.hpp>
#include <fstream>

#include "tests/cli/cli_support.h"
#include "tools/validation/validation_record.h"

using namespace rlsim;
using rlsim::test::scratch_dir;

namespace {

ValidationRow row(const std::string& name, double published, std::optional<double> simulated,
                  Verdict verdict) {
  ValidationRow r;
  r.spec.name = name;
  r.spec.metric = "serving.ttft_s.mean";
  r.spec.published = published;
  r.spec.tolerance = 0.3;
  r.simulated = simulated;
  if (simulated) r.error = (*simulated - published) / published;
  r.verdict = verdict;
  return r;
}

std::string written(const std::string& name, const std::string& text) {
  const auto path = scratch_dir("validation-record") / name;
  std::ofstream(path) << text;
  return path.string();
}

RecordedCase recorded(const std::string& name, SetupFingerprint setup, std::optional<double> error,
                      const std::string& verdict) {
  RecordedCase c;
  c.name = name;
  c.setup = std::move(setup);
  c.metric = "serving.ttft_s.mean";
  c.error = error;
  c.verdict = verdict;
  return c;
}

}  // namespace

TEST_CASE("a validation record reads back as written, skipped cases without an error") {
  const std::vector<ValidationRow> rows = {row("ttft-c1", 400, 360, Verdict::pass),
                                           row("ttft-c25", 700, 1120, Verdict::known_gap),
                                           row("needs-kind", 10, std::nullopt, Verdict::skipped)};
  const std::vector<SetupFingerprint> setups = {
      {"serve", "llama-3-70b", {"H100"}}, {"serve", "llama-3-70b", {"H100", "H20"}}, {"later", "", {}}};
  const std::string csv = record_csv(rows, setups);
  CHECK_THAT(csv,
             Catch::StartsWith("case,kind,model,cards,metric,published,simulated,error,tolerance,verdict\n"));
  CHECK_THAT(csv, Catch::Contains(
                      "ttft-c25,serve,llama-3-70b,H100;H20,serving.ttft_s.mean,700,1120,0.6,0.3,known_gap"));

  const std::vector<RecordedCase> back = read_record(written("record.csv", csv));
  REQUIRE(back.size() == 3);
  CHECK(back[1].name == "ttft-c25");
  CHECK(back[1].setup.cards == std::set<std::string>{"H100", "H20"});
  CHECK(back[1].error == Approx(0.6));
  CHECK(back[1].verdict == "known_gap");
  CHECK(back[0].error == Approx(-0.1));
  CHECK_FALSE(back[2].error.has_value());
  CHECK(back[2].setup.kind == "later");
}

TEST_CASE("a record with a wrong header, row width or number is refused at its line") {
  const std::string header = "case,kind,model,cards,metric,published,simulated,error,tolerance,verdict\n";
  const auto error_of = [](const std::string& path) {
    try {
      read_record(path);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(error_of(written("header.csv", "case,model\n")),
             Catch::Contains("header.csv:1:1: error: expected the header"));
  CHECK_THAT(error_of(written("width.csv", header + "a,serve,m,H100,x,1,1,0,0.3\n")),
             Catch::Contains("width.csv:2:1: error: expected 10 cells, got 9"));
  CHECK_THAT(error_of(written("number.csv", header + "a,serve,m,H100,x,1,1,about 0,0.3,pass\n")),
             Catch::Contains("number.csv:2:1: error: expected a number in column error, got 'about 0'"));
  CHECK_THAT(error_of(written("empty.csv", "")),
             Catch::Contains("empty.csv:1:1: error: expected the header"));
  CHECK_THAT(error_of((scratch_dir("validation-record") / "missing.csv").string()),
             Catch::Contains("cannot read the validation record"));
}

TEST_CASE("a run names its nearest recorded cases, their verdicts and error range per metric, or says none") {
  std::vector<RecordedCase> cases = {
      recorded("c1", {"serve", "llama-3-70b", {"H100"}}, -0.283, "pass"),
      recorded("c25", {"serve", "llama-3-70b", {"H100"}}, 0.621, "known_gap"),
      recorded("c5", {"serve", "llama-3-70b", {"H100"}}, 0.05, "pass"),
      recorded("tpot", {"serve", "llama-3-70b", {"H100"}}, -0.1, "pass"),
      recorded("other", {"serve", "llama-2-7b", {"A100"}}, 3.0, "fail"),
  };
  cases[3].metric = "serving.tpot_s.mean";
  const std::string line =
      validated_near_text({"serve", "llama-3-70b", {"H100"}}, cases, "record.csv", "s.yaml");
  CHECK(line ==
        "validated near this setup: 4 cases sharing model llama-3-70b or its layers (llama-3.1-70b, "
        "llama-3.3-70b) on H100, kind serve\n"
        "  3 within tolerance, 1 known gap (record.csv); simulated vs measured:\n"
        "    serving.ttft_s.mean  2 of 3 within tolerance, -28.3 % to +62.1 %\n"
        "    serving.tpot_s.mean  1 of 1 within tolerance, -10.0 %\n"
        "  run them: rlsim validation --near s.yaml\n");

  // With the run's metrics: what its figures would measure at the cases' errors, value / (1 + error).
  const nlohmann::json own{{"serving", {{"ttft_s", {{"mean", 0.5}}}, {"tpot_s", {{"mean", 0.027}}}}}};
  const std::string implied =
      validated_near_text({"serve", "llama-3-70b", {"H100"}}, cases, "record.csv", "s.yaml", &own);
  CHECK_THAT(implied, Catch::Contains("-28.3 % to +62.1 %; at those errors the 500.0 ms here would measure "
                                      "308 to 697 ms\n") &&
                          Catch::Contains("-10.0 %; at that error the 27.0 ms here would measure 30.0 ms\n"));

  const std::string failing =
      validated_near_text({"rl", "llama-2-7b", {"A100"}}, cases, "record.csv", "s.yaml");
  CHECK_THAT(failing, Catch::Contains("1 case sharing model llama-2-7b on A100\n") &&
                          Catch::Contains("0 within tolerance, 0 known gaps, 1 failing (record.csv)") &&
                          Catch::Contains("serving.ttft_s.mean  0 of 1 within tolerance, +300.0 %"));

  const std::string none =
      validated_near_text({"serve", "qwen3-8b", {"L40S"}}, cases, "record.csv", "s.yaml");
  CHECK(none ==
        "validated near this setup: no case in record.csv shares model qwen3-8b or a card: no published "
        "measurement stands behind these figures\n");
}

TEST_CASE("a run from outside the source tree names the record by its absolute path, not by ../..") {
  const auto dir = scratch_dir("near-elsewhere");
  const std::string source = RLSIM_TEST_SOURCE_DIR;
  const test::CliResult r =
      test::run_shell("cd '" + dir.string() + "' && '" + RLSIM_TEST_BINARY + "' run '" + source +
                      "/scenarios/serve-llama3-70b.yaml' --set workload.requests=30 " + "--out out");
  REQUIRE(r.exit_code == 0);
  const std::string record =
      (std::filesystem::path(source) / "scenarios" / "validation" / "record.csv").lexically_normal().string();
  CHECK_THAT(r.out, Catch::Contains("(" + record + "); simulated vs measured") && !Catch::Contains("(../"));
}

TEST_CASE("a rate whose name ends in _per_s is implied as a number, not as a duration") {
  std::vector<RecordedCase> cases = {recorded("rate", {"serve", "llama-3-70b", {"H100"}}, -0.1, "pass")};
  cases[0].metric = "serving.output_tokens_per_s";
  const nlohmann::json own{{"serving", {{"output_tokens_per_s", 680.0}}}};
  const std::string implied =
      validated_near_text({"serve", "llama-3-70b", {"H100"}}, cases, "record.csv", "s.yaml", &own);
  CHECK_THAT(implied, Catch::Contains("-10.0 %; at that error the 680 here would measure 755.6\n"));
}
