// A profile records the shapes its engine terms were fitted on, and every use outside them is said
// once, naming the field: `cost decode` per flag, `run` in the summary's cost-model line and in
// metrics.json (pricing.outside_fitted_range), `sweep` under its table with the points. Nothing is
// refused: extrapolating is the user's call.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "sim/scenario/profile_loader.h"
#include "sim/scenario/profile_range_check.h"
#include "tests/cli/cli_support.h"

using namespace rlsim;
using namespace rlsim::test;

namespace {

/// NeMo's Llama-2-7B rows at TP 1 and 8, batch 1 to 8, 148 tokens a sequence, fitted on H100.
std::string nemo_profile(const std::string& name) {
  const auto profile = scratch_dir("profile-range") / (name + ".yaml");
  const CliResult r = run_rlsim(
      "calibrate --format serving --hardware H100 --profile calibrate/profiles/h100.yaml --input "
      "data/measured/serving/nemo-llama2-7b-h100-tp1-tp8.csv --out '" +
      profile.string() + "'");
  REQUIRE(r.exit_code == 0);
  return profile.string();
}

}  // namespace

TEST_CASE("a serving fit records its batches, TP degrees and contexts, and reads them back") {
  const HardwareProfile p = load_profile(nemo_profile("read-back"));
  CHECK(p.engine_range.batch_min == 1);
  CHECK(p.engine_range.batch_max == 8);
  CHECK(p.engine_range.tp_min == 1);
  CHECK(p.engine_range.tp_max == 8);
  CHECK(p.engine_range.context_max == 148);  // 128 prompt + 20 output tokens

  EngineUse inside{8, 2, 148, "b", "t", "c"};
  CHECK(engine_range_notes(inside, "H100", p).empty());
  const auto outside = engine_range_notes({64, 16, 4096, "--batch", "--tp", "--context"}, "H100", p);
  REQUIRE(outside.size() == 3);
  CHECK(outside[0] == "--batch 64 (fitted up to batch 8)");
  CHECK(outside[1] == "--tp 16 (fitted on TP 1 to 8)");
  CHECK(outside[2] == "--context 4096 (fitted up to 148 tokens)");
  CHECK(engine_range_notes(inside, "A100", p).empty());  // another card's pool: the terms do not apply
}

TEST_CASE("cost and run say where they use a profile's engine terms outside their fitted range") {
  const std::string profile = nemo_profile("used");
  const CliResult inside = run_rlsim(
      "cost decode --model llama-2-7b --hardware H100 --tp 1 --batch 8 --context 100 "
      "--profile '" +
      profile + "'");
  REQUIRE(inside.exit_code == 0);
  CHECK(inside.out.find("extrapolate") == std::string::npos);
  const CliResult outside = run_rlsim(
      "cost decode --model llama-2-7b --hardware H100 --tp 1 --batch 64 --context "
      "100 --profile '" +
      profile + "'");
  REQUIRE(outside.exit_code == 0);
  CHECK_THAT(outside.out,
             Catch::Contains("the profile's engine terms extrapolate at --batch 64 (fitted up to batch 8)"));

  const auto out = scratch_dir("profile-range-run") / "out";  // its own folder: scratch_dir empties one
  const CliResult run = run_rlsim(
      "run scenarios/serve-llama3-70b.yaml --set model=llama-2-7b --set serve.tp=1 "
      "--set workload.concurrency=4 --set workload.requests=8 --set serve.max_model_len=4096 "
      "--set workload.prompt_tokens=1000 --set workload.output_tokens=100 "
      "--set 'profile=" +
      profile + "' --out '" + out.string() + "'");
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  CHECK_THAT(run.out,
             Catch::Contains("the profile's engine terms extrapolate at serve.max_batch 256 (fitted up to "
                             "batch 8), serve.max_model_len 4096 (fitted up to 148 tokens)"));
  const auto metrics = nlohmann::json::parse(slurp(out / "metrics.json"));
  const auto& notes = metrics.at("pricing").at("outside_fitted_range");
  REQUIRE(notes.size() == 2);  // max_batch and max_model_len; tp 1 was fitted
  CHECK(notes[1] == "serve.max_model_len 4096 (fitted up to 148 tokens)");

  // A sweep says it once under its table, naming the points: here only the larger max_batch.
  const auto sweep = scratch_dir("profile-range-sweep") / "out";
  const CliResult swept = run_rlsim(
      "sweep scenarios/serve-llama3-70b.yaml --set model=llama-2-7b --set serve.tp=1 "
      "--set workload.concurrency=4 --set workload.requests=8 --set serve.max_model_len=148 "
      "--set workload.prompt_tokens=100 --set workload.output_tokens=20 --param serve.max_batch=8,64 "
      "--set 'profile=" +
      profile + "' --quiet --out '" + sweep.string() + "'");
  INFO(swept.err);
  REQUIRE(swept.exit_code == 0);
  CHECK_THAT(swept.out,
             Catch::Contains("outside the profile's fitted range: serve.max_batch 64 (fitted up to "
                             "batch 8) at point 1 (an extrapolation of its terms)\n"));
  CHECK_THAT(swept.out, !Catch::Contains("serve.max_batch 8 ("));
}

TEST_CASE("validate says what prices each card: a profile, or the datasheet roofline") {
  const CliResult bare = run_rlsim("validate scenarios/quickstart.yaml");
  REQUIRE(bare.exit_code == 0);
  CHECK_THAT(bare.out,
             Catch::Contains("priced by: H20, H800: the datasheet roofline (no calibrated profile"));
  const CliResult profiled = run_rlsim("validate scenarios/validation/aic-llama31-70b-b200-trtllm.yaml");
  REQUIRE(profiled.exit_code == 0);
  CHECK_THAT(profiled.out, Catch::Contains("priced by: B200: profile b200-trtllm.yaml"));
}
