// `rlsim plan`: the search finds the same front and choice as simulating the whole grid, its
// datasheet bounds never exceed what a simulation measures, the chosen arrangement's plan.yaml runs
// to the step the plan printed, the same plan comes out whatever --jobs, and bad input writes nothing.
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "tests/cli/cli_support.h"
#include "tools/plan/plan_space.h"

using namespace rlsim::test;
using Catch::Matchers::Contains;

namespace {

/// plan.csv's rows as maps from column to text.
std::vector<std::map<std::string, std::string>> plan_rows(const std::filesystem::path& csv) {
  std::istringstream in(slurp(csv));
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  std::stringstream names(line);
  for (std::string name; std::getline(names, name, ',');) header.push_back(name);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    std::map<std::string, std::string> row;
    std::vector<std::string> cells;
    std::string cell;
    bool quoted = false;
    for (char c : line) {
      if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        cells.push_back(cell);
        cell.clear();
      } else {
        cell += c;
      }
    }
    cells.push_back(cell);
    for (size_t i = 0; i < header.size() && i < cells.size(); ++i) row[header[i]] = cells[i];
    rows.push_back(row);
  }
  return rows;
}

std::string arrangement_of(const std::map<std::string, std::string>& row) {
  return row.at("policy") + " " + row.at("rollout_card") + "x" + row.at("rollout_gpus") + " tp" +
         row.at("rollout_tp") + " / " + row.at("train_card") + "x" + row.at("train_gpus") + " tp" +
         row.at("train_tp") + " " + row.at("train_sharding");
}

/// The simulated rows no other simulated row beats on both step time and cost per step.
std::set<std::string> front_of(const std::vector<std::map<std::string, std::string>>& rows) {
  std::set<std::string> front;
  for (const auto& a : rows) {
    if (a.at("status") != "simulated") continue;
    const double step = std::stod(a.at("steady_step_s")), cost = std::stod(a.at("usd_per_step"));
    bool beaten = false;
    for (const auto& b : rows) {
      if (b.at("status") != "simulated") continue;
      const double s = std::stod(b.at("steady_step_s")), c = std::stod(b.at("usd_per_step"));
      beaten = beaten || (s <= step && c <= cost && (s < step || c < cost));
    }
    if (!beaten) front.insert(arrangement_of(a));
  }
  return front;
}

// Small enough to simulate whole in seconds, also under the sanitizers: 4 steps of 8 prompts.
const std::string kSmallSpace =
    "plan scenarios/heterogeneous.yaml --set workload.steps=4 --set workload.prompts_per_step=8 "
    "--gpus H800:16,H20:16 --rollout-tp 1,4 --train-tp 1,2 --quiet";

}  // namespace

TEST_CASE("plan's search finds the grid's front and choice, simulating less of it") {
  const auto dir = scratch_dir("plan-vs-grid");
  const CliResult searched = run_rlsim(kSmallSpace + " --out '" + (dir / "search").string() + "'");
  INFO(searched.out << searched.err);
  REQUIRE(searched.exit_code == 0);
  const CliResult grid = run_rlsim(kSmallSpace + " --exhaustive --out '" + (dir / "grid").string() + "'");
  REQUIRE(grid.exit_code == 0);
  const auto search_rows = plan_rows(dir / "search" / "plan.csv");
  const auto grid_rows = plan_rows(dir / "grid" / "plan.csv");
  REQUIRE(search_rows.size() == grid_rows.size());
  size_t simulated = 0;
  for (const auto& row : search_rows) simulated += row.at("status") == "simulated";
  CHECK(simulated < grid_rows.size());
  CHECK(front_of(search_rows) == front_of(grid_rows));
  // The chosen line names the same arrangement.
  const auto chosen = [](const std::string& out) {
    return out.substr(out.find("chosen ("), out.find('\n', out.find("chosen (")) - out.find("chosen ("));
  };
  CHECK(chosen(searched.out) == chosen(grid.out));
  // The datasheet bound of every arrangement is at most what its simulation measured.
  for (const auto& row : grid_rows) {
    REQUIRE(row.at("status") == "simulated");
    INFO(arrangement_of(row));
    CHECK(std::stod(row.at("bound_step_s")) <= std::stod(row.at("steady_step_s")));
  }
}

TEST_CASE("plan's plan.yaml runs to the step time the plan printed, and --jobs changes no byte") {
  const auto dir = scratch_dir("plan-yaml");
  const CliResult one = run_rlsim(kSmallSpace + " --jobs 1 --out '" + (dir / "one").string() + "'");
  REQUIRE(one.exit_code == 0);
  const CliResult two = run_rlsim(kSmallSpace + " --jobs 2 --out '" + (dir / "two").string() + "'");
  REQUIRE(two.exit_code == 0);
  CHECK(slurp(dir / "one" / "plan.csv") == slurp(dir / "two" / "plan.csv"));
  CHECK(slurp(dir / "one" / "plan.yaml") == slurp(dir / "two" / "plan.yaml"));
  // "  steady step 16.80 s ± ..., " under the chosen line.
  const size_t at = one.out.find("chosen (");
  REQUIRE(at != std::string::npos);
  const size_t step_at = one.out.find("steady step ", at) + 12;
  const double printed = std::stod(one.out.substr(step_at));
  const CliResult run =
      run_rlsim("run '" + (dir / "one" / "plan.yaml").string() + "' --out '" + (dir / "run").string() + "'");
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  CHECK_THAT(run.out, Contains("step time, steady state      " +
                               one.out.substr(step_at, one.out.find(' ', step_at) - step_at)));
  CHECK(printed > 0.0);
}

TEST_CASE("plan with a target step time chooses the cheapest arrangement per hour that meets it") {
  const auto dir = scratch_dir("plan-target");
  const std::string space = kSmallSpace + " --target-step-time 30s";
  const CliResult searched = run_rlsim(space + " --out '" + (dir / "search").string() + "'");
  INFO(searched.out << searched.err);
  REQUIRE(searched.exit_code == 0);
  const CliResult grid = run_rlsim(kSmallSpace + " --exhaustive --out '" + (dir / "grid").string() + "'");
  REQUIRE(grid.exit_code == 0);
  double cheapest = 1e300;
  for (const auto& row : plan_rows(dir / "grid" / "plan.csv")) {
    if (std::stod(row.at("steady_step_s")) <= 30.0)
      cheapest = std::min(cheapest, std::stod(row.at("usd_per_hour")));
  }
  REQUIRE(cheapest < 1e300);
  bool found = false;
  for (const auto& row : plan_rows(dir / "search" / "plan.csv")) {
    if (row.at("status") != "simulated" || std::stod(row.at("steady_step_s")) > 30.0) continue;
    CHECK(std::stod(row.at("usd_per_hour")) >= cheapest);
    found = found || std::stod(row.at("usd_per_hour")) == cheapest;
  }
  CHECK(found);
  CHECK_THAT(searched.out, Contains("chosen (cheapest per hour with a steady step of at most 30.00 s)"));
}

TEST_CASE("plan refuses bad input with exit 2 and writes nothing") {
  const auto dir = scratch_dir("plan-bad");
  const auto refused = [&](const std::string& args, const std::string& says) {
    const CliResult r = run_rlsim("plan " + args + " --quiet --out '" + (dir / "out").string() + "'");
    INFO(args << "\n" << r.err);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Contains(says));
    CHECK_FALSE(std::filesystem::exists(dir / "out" / "plan.csv"));
  };
  refused("scenarios/heterogeneous.yaml --gpus H800:x",
          "--gpus: error: expected a whole number of GPUs of H800");
  refused("scenarios/heterogeneous.yaml --gpus B999:8", "--gpus");
  refused("scenarios/heterogeneous.yaml --gpus H800", "give a count for H800");
  refused("scenarios/heterogeneous.yaml --gpus H800:8,H800:8", "listed twice");
  refused("scenarios/heterogeneous.yaml --gpus H800:8 --policies labels", "the labels policy needs its tags");
  refused("scenarios/heterogeneous.yaml --gpus H800:8 --rollout-tp 0",
          "--rollout-tp: error: expected TP degrees");
  refused("scenarios/heterogeneous.yaml --gpus H800:8 --target-step-time 5", "--target-step-time: error");
  refused("scenarios/heterogeneous.yaml --gpus H800:8", "no arrangement fits the inventory");
  // One pool for both: the plan has no training pool to arrange.
  std::ofstream(dir / "one-pool.yaml")
      << "name: one-pool\nmodel: qwen3-8b\ncluster:\n  pools:\n"
         "    - {name: gpus, gpu: H800, nodes: 2, gpus_per_node: 8}\n"
         "workload: {steps: 3, prompts_per_step: 8}\n"
         "rollout: {pool: gpus}\ntraining: {pool: gpus}\npolicy: {name: colocated}\n";
  refused("'" + (dir / "one-pool.yaml").string() + "' --gpus H800:16",
          "rlsim plan arranges two pools, one for rollout and one for training");
  refused("scenarios/afd-step3.yaml --gpus H800:16",
          "rlsim plan arranges the pools of an RL or a serving scenario");
}

TEST_CASE("the arrangement space counts every split of the inventory once") {
  using namespace rlsim;
  const PoolShape pools{"rollout", "train", 8, 8};
  PlanSpaceOptions options;
  options.policies = {"colocated", "disaggregated"};
  options.rollout_tps = {1, 2};
  options.train_tps = {1};
  const std::vector<CardStock> stock{{"H800", 32, 2.0}, {"H20", 16, 1.0}};
  const std::vector<Arrangement> space = arrangement_space(stock, pools, options);
  // colocated: H800 2..4 nodes, H20 2 nodes (4 totals); disaggregated: H800+H800 with r + t <= 4 (6),
  // H800+H20 4 x 2 (8), H20+H800 2 x 4 (8), H20+H20 r + t <= 2 (1): 23; each at 2 rollout TPs.
  CHECK(space.size() == (4 + 23) * 2);
  for (const Arrangement& a : space) {
    CHECK(a.usd_per_hour == Approx(8.0 * (a.rollout_nodes * (a.rollout_card == "H800" ? 2.0 : 1.0) +
                                          a.train_nodes * (a.train_card == "H800" ? 2.0 : 1.0))));
  }
  // Training shardings multiply the space, each arrangement setting its own.
  PlanSpaceOptions sharded = options;
  sharded.train_shardings = {"zero1", "zero3"};
  const std::vector<Arrangement> both = arrangement_space(stock, pools, sharded);
  CHECK(both.size() == 2 * space.size());
  CHECK(both.front().sets(pools).back() == "training.sharding=zero1");
  CHECK(space.front().sets(pools).back().rfind("training.sharding", 0) != 0);
  options.budget_usd_per_hour = 40.0;  // at most 2.5 nodes of H800
  for (const Arrangement& a : arrangement_space(stock, pools, options)) CHECK(a.usd_per_hour <= 40.0);
  CHECK_THROWS_WITH(parse_inventory("H800:0", "--gpus"), Contains("expected a whole number of GPUs of H800"));
  CHECK(parse_inventory("H800:64,H20", "--gpus")[1].gpus == std::nullopt);
}

TEST_CASE("a serving plan chooses the cheapest deployment per hour whose p99 meets the SLO") {
  const auto dir = scratch_dir("plan-serve");
  const CliResult r = run_rlsim(
      "plan scenarios/serve-llama3-70b.yaml --set workload.requests=120 --gpus H100:16,H20:8 --rollout-tp "
      "1,2 "
      "--quiet --out '" +
      dir.string() + "'");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const auto rows = plan_rows(dir / "plan.csv");
  double chosen = 1e300;
  for (const auto& row : rows) {
    if (row.at("status") == "meets the SLO") chosen = std::min(chosen, std::stod(row.at("usd_per_hour")));
  }
  REQUIRE(chosen < 1e300);
  for (const auto& row : rows) {
    const double usd = std::stod(row.at("usd_per_hour"));
    INFO(row.at("card") << " " << row.at("gpus") << " tp " << row.at("tp") << ": " << row.at("status"));
    // Every cheaper deployment was simulated and missed; only dearer ones were left out.
    if (usd < chosen)
      CHECK((row.at("status") == "misses the SLO" || row.at("status") == "does not fit memory"));
    if (row.at("status") == "dearer than one that meets the SLO") CHECK(usd > chosen);
  }
  CHECK_THAT(r.out, Contains("chosen (the cheapest per hour that meets the SLO): "));
  const CliResult again =
      run_rlsim("run '" + (dir / "plan.yaml").string() + "' --out '" + (dir / "run").string() + "'");
  CHECK(again.exit_code == 0);
  // No SLO, nothing to meet: refused.
  const CliResult no_slo =
      run_rlsim("plan scenarios/serve-llama3-70b.yaml --unset workload.slo --gpus H100:8 --quiet --out '" +
                (dir / "no-slo").string() + "'");
  CHECK(no_slo.exit_code == 2);
  CHECK_THAT(no_slo.err, Contains("sets none"));
}

TEST_CASE("a plan run again into its folder reuses what it simulated, and finds the same front") {
  const auto dir = scratch_dir("plan-reuse");
  const std::string space = kSmallSpace + " --out '";
  const CliResult capped =
      run_rlsim(kSmallSpace + " --max-points 10 --out '" + (dir / "again").string() + "'");
  INFO(capped.out << capped.err);
  REQUIRE(capped.exit_code == 0);
  CHECK_THAT(capped.out, Contains("stopped at --max-points 10"));
  const CliResult again = run_rlsim(space + (dir / "again").string() + "'");
  REQUIRE(again.exit_code == 0);
  CHECK_THAT(again.out, Contains("reused      10 of them from earlier plans of the same scenario"));
  const CliResult fresh = run_rlsim(space + (dir / "fresh").string() + "'");
  REQUIRE(fresh.exit_code == 0);
  CHECK_THAT(fresh.out, !Contains("reused"));
  const auto a = plan_rows(dir / "again" / "plan.csv"), f = plan_rows(dir / "fresh" / "plan.csv");
  CHECK(front_of(a) == front_of(f));
  CHECK(slurp(dir / "again" / "plan.yaml") == slurp(dir / "fresh" / "plan.yaml"));
  // Another scenario (here another seed): nothing is reused.
  const CliResult other = run_rlsim(kSmallSpace + " --seed 5 --out '" + (dir / "again").string() + "'");
  REQUIRE(other.exit_code == 0);
  CHECK_THAT(other.out, !Contains("reused"));
}

TEST_CASE("a plan's shards, joined with --reuse, give the grid's front without simulating again", "[long]") {
  const auto dir = scratch_dir("plan-shards");
  for (const char* shard : {"1/2", "2/2"}) {
    const CliResult r = run_rlsim(kSmallSpace + " --shard " + shard + " --out '" +
                                  (dir / ("shard-" + std::string(1, shard[0]))).string() + "'");
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Contains(std::string("shard ") + shard + ": "));
  }
  const CliResult joined = run_rlsim(
      kSmallSpace + " --reuse '" + (dir / "shard-1" / "plan-points.json").string() + "' --reuse '" +
      (dir / "shard-2" / "plan-points.json").string() + "' --out '" + (dir / "joined").string() + "'");
  INFO(joined.out << joined.err);
  REQUIRE(joined.exit_code == 0);
  const auto rows = plan_rows(dir / "joined" / "plan.csv");
  size_t reused = 0;
  for (const auto& row : rows) reused += row.at("status") == "simulated";
  CHECK_THAT(joined.out, Contains("reused      " + std::to_string(reused) + " of them"));
  const CliResult grid = run_rlsim(kSmallSpace + " --exhaustive --out '" + (dir / "grid").string() + "'");
  REQUIRE(grid.exit_code == 0);
  CHECK(front_of(rows) == front_of(plan_rows(dir / "grid" / "plan.csv")));
  // A file of another scenario is refused, not silently ignored.
  const CliResult other =
      run_rlsim(kSmallSpace + " --seed 9 --reuse '" + (dir / "shard-1" / "plan-points.json").string() +
                "' --out '" + (dir / "other").string() + "'");
  CHECK(other.exit_code == 2);
  CHECK_THAT(other.err, Contains("is not the plan-points.json of a plan of this scenario"));
}

TEST_CASE("plan searches training shardings too, and still finds the grid's front") {
  const auto dir = scratch_dir("plan-sharding");
  const std::string space =
      "plan scenarios/heterogeneous.yaml --set workload.steps=4 --set workload.prompts_per_step=8 "
      "--gpus H800:16,H20:8 --rollout-tp 1 --train-tp 1 --train-sharding zero1,zero3 --quiet";
  const CliResult searched = run_rlsim(space + " --out '" + (dir / "search").string() + "'");
  INFO(searched.out << searched.err);
  REQUIRE(searched.exit_code == 0);
  const CliResult grid = run_rlsim(space + " --exhaustive --out '" + (dir / "grid").string() + "'");
  REQUIRE(grid.exit_code == 0);
  const auto rows = plan_rows(dir / "grid" / "plan.csv");
  for (const auto& row : rows) {
    INFO(arrangement_of(row) << " " << row.at("train_sharding"));
    CHECK(std::stod(row.at("bound_step_s")) <= std::stod(row.at("steady_step_s")));
  }
  CHECK(front_of(plan_rows(dir / "search" / "plan.csv")) == front_of(rows));
}
