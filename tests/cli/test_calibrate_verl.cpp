// `rlsim calibrate --format verl`: a log written from a run simulated with known RL run terms gives
// those terms back, held-out steps scored near zero and far from the uncalibrated simulation; the
// profile it writes paces a run as the logged one; and a scenario that cannot describe the log
// (a pass it does not run, an asynchronous policy) is refused before any simulation.
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>

#include "sim/scenario/profile_loader.h"
#include "tests/cli/cli_support.h"

using namespace rlsim;
using namespace rlsim::test;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinRel;
using nlohmann::json;

namespace {

const char* kRun = R"(name: verl-fit
seed: 1
model: qwen3-8b
cluster:
  pools:
    - {name: gpus, gpu: H100, nodes: 1, gpus_per_node: 8}
  links:
    - {between: [agents, gpus], bandwidth: 200Gbps}
    - {between: [dataplane, gpus], bandwidth: 200Gbps}
workload:
  steps: 1
  prompts_per_step: 32
  samples_per_prompt: 4
  prompt_tokens: {uniform: {min: 100, max: 300}}
  output_tokens: {lognormal: {mean: 500, sigma: 0.6}, max: 2048}
rollout: {pool: gpus, tp: 2}
training: {pool: gpus, algorithm: grpo, mini_batches: 2, sequence_tokens: 800}
policy: {name: colocated}
)";

const char* kTruth = R"(card: "H100"
device: "H100"
date: "unknown"
sm_count: 132
rl_run:
  framework: "verl"
  generation_efficiency: 0.5
  forward_efficiency: 0.8
  update_efficiency: 0.6
)";

std::filesystem::path write(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

json run_metrics(const std::filesystem::path& dir, const std::string& args, std::string* summary = nullptr) {
  const CliResult r = run_rlsim("run " + args + " --out '" + (dir / "out").string() + "'");
  REQUIRE(r.exit_code == 0);
  if (summary) *summary = r.out;
  return json::parse(slurp(dir / "out" / "metrics.json"));
}

/// One console line of verl's for the phases `m` simulated (weight sync and switches inside gen, as
/// verl through 0.7 times them).
std::string verl_line(int step, const json& m) {
  const json& v = m["verl_timing_s"];
  const double gen =
      v["gen"].get<double>() + v["update_weights"].get<double>() + m["phases_s"]["switch"].get<double>();
  return "(TaskRunner pid=7) step:" + std::to_string(step) + " - timing_s/gen:" + std::to_string(gen) +
         " - timing_s/reward:0.9 - timing_s/old_log_prob:" + std::to_string(v["old_log_prob"].get<double>()) +
         " - timing_s/ref:" + std::to_string(v["ref"].get<double>()) +
         " - timing_s/update_actor:" + std::to_string(v["update_actor"].get<double>()) +
         " - timing_s/step:" + std::to_string(m["step_time_s"]["mean"].get<double>()) + "\n";
}

}  // namespace

TEST_CASE("calibrate --format verl gives back the terms a logged run was simulated with",
          "[cli][calibrate][verl]") {
  const auto dir = scratch_dir("calibrate-verl");
  const auto scenario = write(dir / "run.yaml", kRun);
  const auto truth = write(dir / "truth.yaml", kTruth);
  const json logged =
      run_metrics(dir / "truth", "'" + scenario.string() + "' --set 'profile=" + truth.string() + "'");
  std::string log;
  for (int step = 1; step <= 6; ++step) log += verl_line(step, logged);
  const auto log_file = write(dir / "console.log", "step:0 - val-core/score:0.1\n" + log);

  const auto profile = dir / "fitted.yaml";
  const CliResult r = run_rlsim("calibrate --format verl --scenario '" + scenario.string() + "' --input '" +
                                log_file.string() + "' --out '" + profile.string() + "' --jobs 2 --quiet");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out,
             Contains("6 steps") && Contains("5 fitted, 1 held out") && Contains("held-out step time"));
  const HardwareProfile fitted = load_profile(profile.string());
  REQUIRE(fitted.rl_run);
  CHECK(fitted.card == "H100");
  CHECK_THAT(fitted.rl_run->generation_efficiency, WithinRel(0.5, 0.01));
  CHECK_THAT(fitted.rl_run->forward_efficiency, WithinRel(0.8, 0.01));
  CHECK_THAT(fitted.rl_run->update_efficiency, WithinRel(0.6, 0.01));
  CHECK(fitted.rl_run->error.held_out_points == 1);
  CHECK(fitted.rl_run->error.held_out_mape < 0.01);  // verl's reward time is not simulated: 0.9 s of a step
  CHECK(fitted.rl_run->error.datasheet_held_out_mape > 0.2);

  // The profile in the scenario: the run at the logged pace, and says so.
  std::string summary;
  const json paced = run_metrics(
      dir / "paced", "'" + scenario.string() + "' --set 'profile=" + profile.string() + "'", &summary);
  CHECK_THAT(paced["step_time_s"]["mean"].get<double>(),
             WithinRel(logged["step_time_s"]["mean"].get<double>(), 0.01));
  CHECK_THAT(paced["training"]["rl_run"]["update_efficiency"].get<double>(), WithinRel(0.6, 0.01));
  CHECK_THAT(summary, Contains("calibrated RL run") && Contains("verl on H100"));
}

TEST_CASE("calibrate --format verl refuses a scenario that does not describe the log",
          "[cli][calibrate][verl]") {
  const auto dir = scratch_dir("calibrate-verl-refused");
  const auto scenario = write(dir / "run.yaml", kRun);
  const auto log =
      write(dir / "console.log",
            "step:1 - timing_s/gen:10 - timing_s/old_log_prob:1 - timing_s/ref:1 - timing_s/step:14\n");
  const std::string common =
      " --input '" + log.string() + "' --out '" + (dir / "p.yaml").string() + "' --quiet";
  // The log times a reference pass; the scenario keeps no reference model.
  CliResult r = run_rlsim("calibrate --format verl --scenario '" + scenario.string() +
                          "' --set training.reference_model=false" + common);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("console.log:1") && Contains("timing_s/ref") &&
                        Contains("training.reference_model: true"));
  // verl's synchronous trainer is no pipeline.
  r = run_rlsim("calibrate --format verl --scenario '" + scenario.string() + "' --set policy.name=overlap" +
                common);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("colocated or disaggregated"));
  r = run_rlsim("calibrate --format verl" + common);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("--scenario"));
  CHECK_FALSE(std::filesystem::exists(dir / "p.yaml"));
}

TEST_CASE("the shipped verl example runs at the pace of its calibrated run", "[cli][calibrate][verl]") {
  const auto dir = scratch_dir("verl-example");
  std::string summary;
  const json m = run_metrics(dir,
                             "examples/verl-qwen2-7b-gsm8k/scenario.yaml --set workload.steps=2 "
                             "--set profile=examples/verl-qwen2-7b-gsm8k/verl-profile.yaml",
                             &summary);
  CHECK(m["training"]["rl_run"]["card"] == "MI300X");
  // The log's steps 1-9 take 166-179 s with validation and checkpoints left out.
  CHECK(m["step_time_s"]["mean"].get<double>() > 140.0);
  CHECK(m["step_time_s"]["mean"].get<double>() < 200.0);
}
