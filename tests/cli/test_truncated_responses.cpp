// The share of responses cut at the length cap (verl's response_length/clip_ratio): samples whose
// last reply hit workload.output_tokens' max, counted over the steady steps, per step in
// metrics.json and in the summary; none when nothing reaches the cap.
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_support.h"

using namespace rlsim::test;
using nlohmann::json;

namespace {

json run_metrics(const std::filesystem::path& dir, const std::string& output_tokens, std::string* summary) {
  const CliResult r = run_rlsim(
      "run scenarios/quickstart.yaml --set workload.steps=4 --set 'workload.output_tokens=" + output_tokens +
      "' --out '" + dir.string() + "'");
  REQUIRE(r.exit_code == 0);
  *summary = r.out;
  return json::parse(slurp(dir / "metrics.json"));
}

}  // namespace

TEST_CASE("responses cut at the length cap are counted as verl's clip ratio") {
  const auto dir = scratch_dir("truncated");
  std::string summary;
  // A lognormal of mean 800 and sigma 0.8 passes 1,000 tokens with probability 24.9 %.
  const json capped =
      run_metrics(dir / "capped", "{lognormal: {mean: 800, sigma: 0.8}, max: 1000}", &summary);
  const double fraction = capped["responses"]["truncated_fraction"].get<double>();
  CHECK(fraction == Approx(0.249).margin(0.06));
  CHECK_THAT(summary, Catch::Contains("responses cut") && Catch::Contains("response_length/clip_ratio"));
  // The steady steps' per-step counts give the same share.
  double cut = 0.0, samples = 0.0;
  for (const auto& step : capped["per_step"]) {
    const int id = step["step"].get<int>();
    if (id == 0 || id == 3) continue;  // warm-up and drain
    cut += step["truncated_samples"].get<double>();
    samples += step["samples"].get<double>();
  }
  CHECK(fraction == Approx(cut / samples));
  const json free = run_metrics(dir / "free", "500", &summary);  // fixed length, no cap
  CHECK(free["responses"]["truncated_fraction"].get<double>() == 0.0);
}
