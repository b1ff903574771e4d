// The run summary (per-step table, steady-state mean, readable units, percentiles only with enough
// samples, the nearest validated cases), metrics.json's per-step records, and `rlsim diff` between
// two run folders.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "tests/cli/cli_support.h"
#include "tools/report/text_format.h"

using namespace rlsim::test;
using nlohmann::json;

TEST_CASE("durations print in the unit that reads best") {
  CHECK(rlsim::readable_duration(0.00085) == "850 us");
  CHECK(rlsim::readable_duration(0.0312) == "31.2 ms");
  CHECK(rlsim::readable_duration(0.00534) == "5.34 ms");
  CHECK(rlsim::readable_duration(48.7312) == "48.73 s");
  CHECK(rlsim::readable_duration(744.0) == "12.4 min");
  CHECK(rlsim::readable_duration(9379.3451) == "2.6 h");
  CHECK(rlsim::readable_duration(0.0) == "0 s");
}

TEST_CASE("the summary has a per-step table and a steady-state mean without the warm-up and drain steps") {
  const auto out = scratch_dir("summary") / "out";
  CliResult r =
      run_rlsim("run scenarios/quickstart.yaml --set workload.steps=5 --out '" + out.string() + "'");
  REQUIRE(r.exit_code == 0);
  INFO(r.out);
  const json m = json::parse(slurp(out / "metrics.json"));
  REQUIRE(m["per_step"].size() == 5);
  std::vector<double> steady;
  for (int i = 0; i < 5; ++i) {
    const json& s = m["per_step"][i];
    CHECK(s["step"] == i);
    CHECK(s["duration_s"].get<double>() == Approx(s["end_s"].get<double>() - s["start_s"].get<double>()));
    if (i > 0 && i < 4) steady.push_back(s["duration_s"].get<double>());
  }
  const double mean = (steady[0] + steady[1] + steady[2]) / 3.0;
  CHECK(m["steady_state"]["steps"] == json::array({1, 2, 3}));
  CHECK(m["steady_state"]["warmup_steps"] == 1);
  CHECK(m["steady_state"]["drain_steps"] == 1);
  CHECK(m["steady_state"]["enough_to_rank"] == true);
  CHECK(m["steady_state"]["start_s"].get<double>() == Approx(m["per_step"][1]["start_s"].get<double>()));
  CHECK(m["steady_state"]["end_s"].get<double>() == Approx(m["per_step"][3]["end_s"].get<double>()));
  CHECK(m["step_time_s"]["steady_mean"].get<double>() == Approx(mean));
  // The 95 % interval: Student's t with 2 degrees of freedom (4.303) times the standard error.
  double squares = 0.0;
  for (double v : steady) squares += (v - mean) * (v - mean);
  const double half = 4.303 * std::sqrt(squares / 2.0) / std::sqrt(3.0);
  REQUIRE(m["step_time_s"]["steady_ci95"].size() == 2);
  CHECK(m["step_time_s"]["steady_ci95"][0].get<double>() == Approx(mean - half));
  CHECK(m["step_time_s"]["steady_ci95"][1].get<double>() == Approx(mean + half));
  CHECK(m["step_time_s"]["samples"] == 5);
  CHECK_THAT(r.out, Catch::Contains("per step:") && Catch::Contains("warm-up and drain steps left out") &&
                        Catch::Contains("95 % interval") && Catch::Contains("w warm-up, d drain") &&
                        Catch::Contains("\n  0w ") && Catch::Contains("\n  4d "));
  CHECK_THAT(r.out, !Catch::Contains("too few steady steps"));
  // Per-step figures cover the same window: samples/s is the steady steps' samples over its length.
  double samples = 0.0;
  for (int i = 1; i < 4; ++i) samples += m["per_step"][i]["samples"].get<double>();
  CHECK(m["throughput"]["samples_per_s"].get<double>() ==
        Approx(samples /
               (m["steady_state"]["end_s"].get<double>() - m["steady_state"]["start_s"].get<double>())));
}

TEST_CASE("a run with too few steady steps says so and names the length to run") {
  const auto out = scratch_dir("summary-short") / "out";
  CliResult r =
      run_rlsim("run scenarios/quickstart.yaml --set workload.steps=3 --out '" + out.string() + "'");
  REQUIRE(r.exit_code == 0);
  INFO(r.out);
  const json m = json::parse(slurp(out / "metrics.json"));
  CHECK(m["steady_state"]["steps"] == json::array({1}));
  CHECK(m["steady_state"]["enough_to_rank"] == false);
  CHECK(m["step_time_s"]["steady_ci95"].empty());
  CHECK_THAT(r.out, Catch::Contains("too few steady steps to rank on: run at least 5 steps"));
  // Three steps are too few for a p99: the step line gives the max, TTFT/TPOT give their call count.
  CHECK_THAT(r.out, Catch::Contains("step time, all steps") && Catch::Contains(" max"));
  CHECK_THAT(r.out, Catch::Contains("calls)"));
  CHECK_THAT(r.out, !Catch::Contains("step time mean / p99"));
  // The validated cases nearest to it (quickstart: qwen3-8b on H20 and H800, no case of that model),
  // from the committed record.
  CHECK_THAT(
      r.out,
      Catch::Contains("validated near this setup: ") &&
          Catch::Contains(" sharing card one of H20, H800, kind rl (no case of model qwen3-8b") &&
          Catch::Contains("(scenarios/validation/record.csv); simulated vs measured:\n") &&
          Catch::Contains("    step_time_s.mean  ") &&
          Catch::Contains(
              "  run them: rlsim validation --near scenarios/quickstart.yaml --set workload.steps=3\n"));
  // report.html's summary says the same.
  CHECK_THAT(slurp(out / "report.html"), Catch::Contains("validated near this setup: "));
}

TEST_CASE("diff prints the inputs and figures that changed between two runs") {
  const auto dir = scratch_dir("diff");
  REQUIRE(
      run_rlsim("run scenarios/quickstart.yaml --set workload.steps=2 --out '" + (dir / "a").string() + "'")
          .exit_code == 0);
  REQUIRE(
      run_rlsim("run scenarios/quickstart.yaml --set workload.steps=2 --set rollout.max_batch=32 --out '" +
                (dir / "b").string() + "'")
          .exit_code == 0);
  CliResult same = run_rlsim("diff '" + (dir / "a").string() + "' '" + (dir / "a").string() + "'");
  REQUIRE(same.exit_code == 0);
  CHECK_THAT(same.out,
             Catch::Contains("resolved.yaml identical") && Catch::Contains("metrics.json identical"));
  CliResult changed = run_rlsim("diff '" + (dir / "a").string() + "' '" + (dir / "b").string() + "'");
  REQUIRE(changed.exit_code == 0);
  INFO(changed.out);
  CHECK_THAT(changed.out,
             Catch::Contains("inputs (1 changed in resolved.yaml):\n  rollout.max_batch: 128 -> 32\n"));
  CHECK_THAT(changed.out, Catch::Contains("step_time_s.mean") && Catch::Contains("%)"));
  // A pool's field by the pool's name; a value that appears elsewhere in the file still shows.
  REQUIRE(
      run_rlsim("run scenarios/quickstart.yaml --set workload.steps=2 --set cluster.pools.rollout.nodes=2 "
                "--set training.tp=2 --out '" +
                (dir / "c").string() + "'")
          .exit_code == 0);
  CliResult pools = run_rlsim("diff '" + (dir / "a").string() + "' '" + (dir / "c").string() + "'");
  INFO(pools.out);
  CHECK_THAT(pools.out, Catch::Contains("  cluster.pools[rollout].nodes: 1 -> 2\n") &&
                            Catch::Contains("  training.tp: 1 -> 2\n"));
  // Figures by the size of their relative change, biggest first.
  const size_t figures = pools.out.find("figures (");
  REQUIRE(figures != std::string::npos);
  std::vector<double> sizes;
  std::istringstream lines(pools.out.substr(figures));
  for (std::string line; std::getline(lines, line);) {
    const size_t open = line.rfind(" (");
    if (open != std::string::npos && line.size() > open + 3 && line.back() == ')' &&
        line[line.size() - 2] == '%')
      sizes.push_back(std::abs(std::stod(line.substr(open + 2))));
  }
  REQUIRE(sizes.size() > 3);
  CHECK(std::is_sorted(sizes.rbegin(), sizes.rend()));
  CliResult missing = run_rlsim("diff '" + (dir / "a").string() + "' '" + (dir / "none").string() + "'");
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.err, Catch::Contains("expected a run's output folder, found no folder"));
  // A number past a double's range is out_of_range to nlohmann::json, not a parse error: it must
  // still be a located input error, not an abort.
  std::filesystem::copy(dir / "a", dir / "huge", std::filesystem::copy_options::recursive);
  std::ofstream(dir / "huge" / "metrics.json") << "{\"step_time_s\": {\"mean\": 1e999}}\n";
  CliResult huge = run_rlsim("diff '" + (dir / "a").string() + "' '" + (dir / "huge").string() + "'");
  CHECK(huge.exit_code == 2);
  CHECK_THAT(huge.err, Catch::Contains("metrics.json:1:1: error: not valid JSON"));
  // Nested 50,000 deep: refused at its depth, not a stack overflow.
  std::ofstream(dir / "huge" / "metrics.json") << std::string(50000, '[') << std::string(50000, ']') << "\n";
  CliResult deep = run_rlsim("diff '" + (dir / "a").string() + "' '" + (dir / "huge").string() + "'");
  CHECK(deep.exit_code == 2);
  CHECK_THAT(deep.err, Catch::Contains("nested more than"));
}
