// Each sweep point keeps its whole metrics.json, and sweep-metrics.csv flattens every scalar of them
// into one row per point: the figures are the point's own run's, and a resumed or merged sweep has
// them too.
#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/cli/cli_support.h"
#include "tools/sweep/sweep_csv.h"
#include "tools/sweep/sweep_points.h"

using namespace rlsim;
using namespace rlsim::test;
using nlohmann::json;

TEST_CASE("flatten_metrics names every scalar by its dotted path and leaves per-step records out") {
  const json m =
      json::parse(R"({"a": {"b": 1.5, "c": "x", "d": true}, "ci": [1, 2], "per_step": [{"s": 1}]})");
  const auto flat = flatten_metrics(m);
  CHECK(flat.at("a.b") == "1.5");
  CHECK(flat.at("a.c") == "x");
  CHECK(flat.at("a.d") == "true");
  CHECK(flat.at("ci.0") == "1");
  CHECK(flat.at("ci.1") == "2");
  CHECK(flat.size() == 5);
}

TEST_CASE("a sweep keeps each point's metrics.json and flattens them into sweep-metrics.csv") {
  const auto dir = scratch_dir("sweep-points") / "out";
  const CliResult r = run_rlsim(
      "sweep scenarios/quickstart.yaml --set workload.steps=2 --param rollout.max_batch=32,128 --jobs 2 "
      "--quiet --out '" +
      dir.string() + "'");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const json point1 = json::parse(slurp(point_metrics_path(dir, 1)));
  CHECK(point1["scenario"] == "quickstart");
  const std::string csv = slurp(dir / "sweep-metrics.csv");
  std::vector<std::string> lines;
  std::istringstream in(csv);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  REQUIRE(lines.size() == 3);
  const std::vector<std::string> header = csv_cells(lines[0]);
  CHECK(header[0] == "point");
  CHECK(header[1] == "rollout.max_batch");
  const std::vector<std::string> row = csv_cells(lines[2]);
  auto cell = [&](const std::string& column) {
    const auto at = std::find(header.begin(), header.end(), column);
    REQUIRE(at != header.end());
    return row[static_cast<size_t>(at - header.begin())];
  };
  CHECK(cell("rollout.max_batch") == "128");
  CHECK(cell("step_time_s.mean") == csv_number(point1["step_time_s"]["mean"].get<double>()));
  CHECK(cell("bubble.by_cause.train_waits_rollout") ==
        csv_number(point1["bubble"]["by_cause"]["train_waits_rollout"].get<double>()));
  // Run again: nothing to do, the table is rewritten from the kept points.
  const CliResult again = run_rlsim(
      "sweep scenarios/quickstart.yaml --set workload.steps=2 --param "
      "rollout.max_batch=32,128 --quiet --out '" +
      dir.string() + "'");
  REQUIRE(again.exit_code == 0);
  CHECK(slurp(dir / "sweep-metrics.csv") == csv);
}
