// `rlsim forecast`: a length schedule interpolated as written, samples that include the schedule's
// points, a run's total from sampled steps within 3 % of simulating every step, and clear refusals.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_support.h"
#include "tools/forecast/forecast_model.h"

using namespace rlsim;
using namespace rlsim::test;
using Catch::Matchers::Contains;

TEST_CASE("a length schedule is linear between its points and held beyond them") {
  const std::vector<LengthSchedulePoint> schedule{{10, 1000.0, {}}, {110, 3000.0, {}}};
  CHECK(scheduled_output_mean(schedule, 500.0, 0) == 1000.0);
  CHECK(scheduled_output_mean(schedule, 500.0, 60) == Approx(2000.0));
  CHECK(scheduled_output_mean(schedule, 500.0, 400) == 3000.0);
  CHECK(scheduled_output_mean({}, 500.0, 60) == 500.0);
  // Evenly spaced from the first step to the last, the schedule's inner points added.
  CHECK(forecast_sample_steps(101, 3, schedule) == std::vector<int>{0, 10, 50, 100});
  CHECK(forecast_sample_steps(4, 10, {}) == std::vector<int>{0, 1, 2, 3});
}

TEST_CASE("a forecast sums the steps on the line between samples and adds evaluations and checkpoints") {
  std::vector<ForecastSample> samples(2);
  samples[0].step = 0;
  samples[0].step_s = 10.0;
  samples[0].usd_per_step = 1.0;
  samples[1].step = 9;
  samples[1].step_s = 19.0;
  samples[1].usd_per_step = 1.9;
  RunExtras extras;
  extras.eval_every = 5;
  extras.eval_s = 60.0;
  extras.checkpoint_every = 10;
  extras.checkpoint_s = 30.0;
  extras.cluster_usd_per_hour = 36.0;
  const ForecastTotals t = forecast_totals(samples, 10, extras);
  CHECK(t.step_seconds == Approx(145.0));  // 10 + 11 + ... + 19
  CHECK(t.evaluations == 2);
  CHECK(t.checkpoints == 1);
  CHECK(t.extra_seconds == Approx(150.0));
  CHECK(t.usd == Approx(14.5 + 36.0 * 150.0 / 3600.0));
  // b starts slower and grows slower: a overtakes it where the lines cross.
  std::vector<ForecastSample> other = samples;
  other[0].step_s = 13.0;
  other[1].step_s = 16.0;
  const auto cross = first_crossing(samples, &ForecastSample::step_s, other, &ForecastSample::step_s, 10);
  REQUIRE(cross);
  CHECK(*cross == Approx(4.5));  // 10 + t = 13 + t/3
  CHECK_FALSE(first_crossing(samples, &ForecastSample::step_s, samples, &ForecastSample::step_s, 10));
}

TEST_CASE("forecast from a few sampled steps is within 3 % of simulating every step", "[long]") {
  const auto dir = scratch_dir("forecast-every-step");
  // Small runs (4 steps of 8 prompts each), so that simulating all 20 steps takes seconds, also
  // under the sanitizers.
  const std::string base =
      "forecast scenarios/colocated-vs-disaggregated.yaml --set workload.steps=4 --set "
      "workload.prompts_per_step=8 "
      "--set workload.length_schedule.1.step=19 --steps 20 --policies colocated,streaming --eval-every 10 "
      "--eval-time 1min --quiet";
  const CliResult every = run_rlsim(base + " --samples 20 --out '" + (dir / "every").string() + "'");
  INFO(every.out << every.err);
  REQUIRE(every.exit_code == 0);
  const CliResult sampled = run_rlsim(base + " --samples 4 --out '" + (dir / "sampled").string() + "'");
  REQUIRE(sampled.exit_code == 0);
  const auto every_json = nlohmann::json::parse(slurp(dir / "every" / "forecast.json"));
  const auto sampled_json = nlohmann::json::parse(slurp(dir / "sampled" / "forecast.json"));
  for (size_t i = 0; i < 2; ++i) {
    const auto &e = every_json["policies"][i], &s = sampled_json["policies"][i];
    INFO(e["policy"]);
    CHECK(e["simulated_steps"] == 20);
    CHECK(s["simulated_steps"] == 4);
    CHECK(s["hours"].get<double>() == Approx(e["hours"].get<double>()).epsilon(0.03));
    CHECK(s["usd"].get<double>() == Approx(e["usd"].get<double>()).epsilon(0.03));
    CHECK(e["evaluations"] == 2);
  }
  // The longer responses lengthen the steps.
  CHECK_THAT(every.out,
             Contains("mean response 1,024 -> 3,072 tokens") && Contains("bottleneck (colocated)"));
}

TEST_CASE("forecast refuses what it cannot forecast with exit 2, naming where") {
  const auto dir = scratch_dir("forecast-bad");
  const auto refused = [&](const std::string& args, const std::string& says) {
    const CliResult r = run_rlsim("forecast " + args + " --quiet --out '" + (dir / "out").string() + "'");
    INFO(args << "\n" << r.err);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains(says));
    CHECK_FALSE(std::filesystem::exists(dir / "out" / "forecast.json"));
  };
  refused(
      "scenarios/colocated-vs-disaggregated.yaml --set workload.length_schedule.1.output_tokens_mean=9000",
      "cannot average 9000 tokens");
  refused("scenarios/colocated-vs-disaggregated.yaml --set workload.length_schedule.1.step=0",
          "expected steps in increasing order");
  refused("scenarios/colocated-vs-disaggregated.yaml --eval-time 3", "--eval-time: error");
  refused("scenarios/colocated-vs-disaggregated.yaml --policies nope", "nope");
  refused("scenarios/serve-llama3-70b.yaml", "rlsim forecast runs an RL scenario's steps");
}
