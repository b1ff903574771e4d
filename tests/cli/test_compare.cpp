// `rlsim compare` end to end: one row per policy in compare.csv with the documented columns, an
// SVG chart, a table with advice, skipped policies with their reason, bad input rejected.
#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <sstream>

#include "sim/platform/gpu_state.h"
#include "tests/cli/cli_support.h"

using namespace rlsim::test;

namespace {

std::vector<std::string> csv_cells(const std::string& line) {
  std::vector<std::string> cells;
  std::istringstream in(line);
  std::string cell;
  while (std::getline(in, cell, ',')) cells.push_back(cell);
  return cells;
}

std::vector<std::string> csv_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_CASE("compare runs each policy on the same workload and writes csv, svg and per-policy runs") {
  const auto out = scratch_dir("compare") / "out";
  CliResult r = run_rlsim(
      "compare scenarios/quickstart.yaml --policies disaggregated,overlap,labels --jobs 2 --set "
      "workload.steps=2 --out '" +
      out.string() + "'");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("disaggregated") && Catch::Contains("labels") &&
                        Catch::Contains("measured better") &&
                        Catch::Contains("  disaggregated: measured: labels, "));
  // How far to trust the comparison: the validated cases nearest to the scenario, here and in report.html.
  CHECK_THAT(r.out,
             Catch::Contains("validated near this setup: ") &&
                 Catch::Contains(
                     "run them: rlsim validation --near scenarios/quickstart.yaml --set workload.steps=2\n"));
  CHECK_THAT(slurp(out / "report.html"), Catch::Contains("validated near this setup: "));
  const auto lines = csv_lines(slurp(out / "compare.csv"));
  REQUIRE(lines.size() == 4);
  // Ranked: the rows come best first, numbered; every policy is there once.
  CHECK(lines[0].rfind("policy,rank,steady_step_time_s,steady_step_time_ci95_half_s,samples_per_s,bubble_"
                       "fraction,train_waits_rollout,"
                       "rollout_waits_weights,rollout_waits_agents,long_tail,",
                       0) == 0);
  CHECK_THAT(lines[0],
             Catch::EndsWith(",staleness_versions,tpot_p50_s,usd_per_step,usd_per_1m_tokens,recommendation,"
                             "best_measured"));
  std::set<std::string> policies;
  double previous = 0.0;
  for (size_t i = 1; i < lines.size(); ++i) {
    const auto cells = csv_cells(lines[i]);
    policies.insert(cells[0]);
    CHECK(cells[1] == std::to_string(i));
    const double step_s = std::stod(cells[2]);
    CHECK(step_s >= previous);
    previous = step_s;
  }
  CHECK(policies == std::set<std::string>{"disaggregated", "overlap", "labels"});
  const std::string svg = slurp(out / "compare.svg");
  CHECK(svg.rfind("<svg", 0) == 0);
  const std::string rollout = rlsim::to_string(rlsim::GpuState::busy(rlsim::Phase::rollout));
  CHECK_THAT(svg, Catch::Contains(rollout) && Catch::Contains("labels") && Catch::Contains("</svg>"));
  // The title names the model and the cards, the subtitle the scenario.
  CHECK_THAT(svg, Catch::Contains("GPU time per RL step by state: qwen3-8b, rollout 8xH20 + train 8xH800") &&
                      Catch::Contains(">quickstart: GPU-seconds per step"));
  CHECK(std::filesystem::exists(out / "labels" / "metrics.json"));
  // The same policy's row matches a plain run of it.
  const auto single = scratch_dir("compare-single") / "out";
  REQUIRE(run_rlsim("run scenarios/quickstart.yaml --set policy.name=overlap --set workload.steps=2 --out '" +
                    single.string() + "'")
              .exit_code == 0);
  CHECK(slurp(single / "metrics.json") == slurp(out / "overlap" / "metrics.json"));
}

TEST_CASE(
    "compare of label-scheduling ranks the policies, names a winner and advises no policy to adopt itself") {
  const auto out = scratch_dir("compare-labels") / "out";
  CliResult r = run_rlsim("compare scenarios/label-scheduling.yaml --jobs 4 --set workload.steps=2 --out '" +
                          out.string() + "'");
  REQUIRE(r.exit_code == 0);
  INFO(r.out);
  CHECK_THAT(r.out, Catch::Contains("ranked by step_time_s") && Catch::Contains("winner by step_time_s") &&
                        Catch::Contains("better than the runner-up") &&
                        Catch::Contains("price paid: staleness") && Catch::Contains("TPOT p50"));
  const auto lines = csv_lines(slurp(out / "compare.csv"));
  REQUIRE(lines.size() == 6);
  const std::map<std::string, std::string> applies{{"label_scheduling", "labels"},
                                                   {"pipeline_overlap", "overlap"}};
  const std::string winner = csv_cells(lines[1])[0];
  for (size_t i = 1; i < lines.size(); ++i) {
    const auto cells = csv_cells(lines[i]);
    const std::string policy = cells[0], recommendation = cells[cells.size() - 2];
    INFO(policy << " advised " << recommendation);
    CHECK(cells.back() == winner);
    if (applies.count(recommendation)) CHECK(applies.at(recommendation) != policy);
    if (policy == "labels" || policy == "overlap" || policy == "streaming")
      CHECK(recommendation != "pipeline_overlap");
  }
  // The winner line names the first row.
  CHECK_THAT(r.out, Catch::Contains("): " + winner + " at "));
  // Another objective re-ranks: cost per step, lower first.
  CliResult cost = run_rlsim(
      "compare scenarios/label-scheduling.yaml --jobs 4 --set workload.steps=2 --objective "
      "usd_per_step --out '" +
      out.string() + "'");
  REQUIRE(cost.exit_code == 0);
  CHECK_THAT(cost.out, Catch::Contains("winner by usd_per_step"));
  CHECK(run_rlsim("compare scenarios/label-scheduling.yaml --objective speed --out '" + out.string() + "'")
            .exit_code == 2);
}

TEST_CASE("compare lists a policy that cannot run the cluster as skipped, with the reason") {
  const auto out = scratch_dir("compare-skip") / "out";
  // quickstart rolls out on H20 and trains on H800: colocated needs one card for both.
  CliResult r = run_rlsim(
      "compare scenarios/quickstart.yaml --policies colocated,disaggregated --set workload.steps=1 --out '" +
      out.string() + "'");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("colocated") && Catch::Contains("skipped"));
  CHECK(csv_lines(slurp(out / "compare.csv")).size() == 2);
}

TEST_CASE("compare rejects unknown policies and bad scenarios without writing anything") {
  const auto out = scratch_dir("compare-bad") / "out";
  CliResult unknown = run_rlsim(
      "compare scenarios/quickstart.yaml --policies disaggregated,nonsense --out '" + out.string() + "'");
  CHECK(unknown.exit_code == 2);
  CHECK_THAT(unknown.err, Catch::Contains("nonsense"));
  CliResult missing = run_rlsim("compare scenarios/does-not-exist.yaml --out '" + out.string() + "'");
  CHECK(missing.exit_code == 2);
  CHECK_FALSE(std::filesystem::exists(out));
}

TEST_CASE("compare refuses a serving or AFD scenario, which runs no policy, and names the sweep instead") {
  const auto out = scratch_dir("compare-kind") / "out";
  for (const auto& [file, objective] :
       {std::pair<std::string, std::string>{"scenarios/serve-llama3-70b.yaml", "output_tokens_per_s"},
        {"scenarios/afd-step3.yaml", "tokens_per_s_per_gpu"}}) {
    const CliResult r = run_rlsim("compare " + file + " --out '" + out.string() + "'");
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err,
               Catch::StartsWith(file + ": error: rlsim compare ranks the policies of an RL scenario"));
    CHECK_THAT(r.err, Catch::Contains("(rlsim sweep " + file + " --param FIELD=A,B,…)") &&
                          Catch::Contains("names the best point by " + objective));
    CHECK_FALSE(std::filesystem::exists(out));
  }
  // A --set that turns the file into another kind is read first, as every command reads it.
  CHECK_THAT(run_rlsim("compare scenarios/quickstart.yaml --set kind=afd --out '" + out.string() + "'").err,
             Catch::Contains("this one is kind afd"));
}
