// The report of a finished sweep in process, from small hand-written tables: the RL summary as
// `rlsim sweep` prints it, AFD series with their best batch and knee, the plot each kind draws,
// the Pareto frontier, and the files (sweep.svg, pareto.csv) written beside sweep.csv.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <map>

#include "tests/cli/cli_support.h"
#include "tools/kinds/afd_sweep_findings.h"
#include "tools/kinds/scenario_kind.h"
#include "tools/report/svg_plot.h"
#include "tools/sweep/sweep_report.h"

using namespace rlsim;
using rlsim::test::CliResult;
using rlsim::test::run_rlsim;
using rlsim::test::scratch_dir;
using rlsim::test::slurp;

namespace {

/// A figure written in milliseconds as sweep.csv holds it, in seconds ("" stays empty).
std::string seconds(const char* ms) {
  return *ms ? csv_number(1e-3 * std::strtod(ms, nullptr)) : std::string();
}

/// The objective a sweep of `kind` ranks by when --objective is not given.
SweepObjective own_objective(const ScenarioKind& kind) {
  return sweep_objective(kind.default_sweep_objective());
}

/// A table whose header is "point", the manifest's axes and `kind`'s sweep columns; each row gives
/// some columns by name, the others are "0".
SweepTable make_table(const SweepManifest& manifest,
                      const std::vector<std::map<std::string, std::string>>& rows) {
  SweepTable table;
  table.header = manifest.header;
  for (size_t point = 0; point < rows.size(); ++point) {
    std::vector<std::string> cells;
    for (const auto& column : table.header) {
      const auto it = rows[point].find(column);
      cells.push_back(column == "point" ? std::to_string(point) : it == rows[point].end() ? "0" : it->second);
    }
    table.rows[static_cast<long>(point)] = cells;
  }
  return table;
}

SweepManifest manifest_of(const ScenarioKind& kind, const std::string& scenario,
                          std::vector<SweepAxis> axes) {
  SweepManifest manifest;
  manifest.scenario = scenario;
  manifest.kind = kind.name();
  manifest.axes = std::move(axes);
  manifest.points = SweepGrid(manifest.axes).size();
  manifest.header = {"point"};
  for (const auto& axis : manifest.axes) manifest.header.push_back(axis.path);
  for (const auto& column : kind.sweep_columns()) manifest.header.push_back(column);
  return manifest;
}

}  // namespace

TEST_CASE("an RL sweep's summary, plot and Pareto frontier, as rlsim sweep prints and writes them") {
  const auto rl = make_scenario_kind("rl", {"test", 0, 0});
  const SweepManifest manifest =
      manifest_of(*rl, "scenarios/quickstart.yaml", {parse_sweep_param("rollout.tp=1,2")});
  const SweepTable table = make_table(manifest, {{{"rollout.tp", "1"},
                                                  {"step_time_s", "65.2778"},
                                                  {"samples_per_s", "3.9217"},
                                                  {"bubble_fraction", "0.621563"},
                                                  {"tpot_p50_s", "0.00819674"},
                                                  {"usd_per_step", "0.406173"},
                                                  {"usd_per_1m_tokens", "1.04769"}},
                                                 {{"rollout.tp", "2"},
                                                  {"step_time_s", "48.7307"},
                                                  {"samples_per_s", "5.25336"},
                                                  {"bubble_fraction", "0.545695"},
                                                  {"tpot_p50_s", "0.00733888"},
                                                  {"usd_per_step", "0.303214"},
                                                  {"usd_per_1m_tokens", "0.782118"}}});
  const SweepSummary summary =
      summarize_sweep(table, manifest, rl->sweep_report(table, manifest, own_objective(*rl)), true);
  CHECK(summary.text ==
        "sweep results (2 of 2 points):\n"
        "  rollout.tp step_time_s samples_per_s bubble_fraction usd_per_step usd_per_1m_tokens\n"
        "           1     65.2778        3.9217        0.621563     0.406173           1.04769\n"
        "           2     48.7307       5.25336        0.545695     0.303214          0.782118\n"
        "Pareto frontier (cost per 1M tokens vs TPOT, 1 points):\n"
        "  point rollout.tp tpot_p50_ms usd_per_1m_tokens\n"
        "      1          2     7.33888          0.782118\n");
  REQUIRE(summary.svg);
  CHECK_THAT(*summary.svg, Catch::StartsWith("<svg") && Catch::Contains("RL step time vs rollout.tp") &&
                               Catch::Contains("swept rollout.tp") &&
                               Catch::Contains("best by step_time_s: 48.73 s at tp=2"));
  REQUIRE(summary.pareto);
  CHECK(summary.pareto->rows.size() == 1);

  const auto dir = scratch_dir("report-rl");
  write_sweep_outputs(dir, summary);
  CHECK(slurp(dir / "sweep.svg") == *summary.svg);
  const SweepTable pareto = read_sweep_csv(dir / "pareto.csv");
  CHECK(pareto.header == manifest.header);
  CHECK(pareto.rows == summary.pareto->rows);
}

TEST_CASE("an RL sweep over a non-numeric axis plots it as categories, and without --pareto no pareto.csv") {
  const auto rl = make_scenario_kind("rl", {"test", 0, 0});
  const SweepManifest manifest =
      manifest_of(*rl, "s.yaml", {parse_sweep_param("policy.name=colocated,disaggregated")});
  const SweepTable table = make_table(manifest, {{{"policy.name", "colocated"}, {"step_time_s", "30"}},
                                                 {{"policy.name", "disaggregated"}, {"step_time_s", "20"}}});
  const SweepSummary summary =
      summarize_sweep(table, manifest, rl->sweep_report(table, manifest, own_objective(*rl)), false);
  REQUIRE(summary.svg);
  CHECK_THAT(*summary.svg, Catch::Contains(">colocated</text>") && Catch::Contains(">disaggregated</text>") &&
                               Catch::Contains("best by step_time_s: 20.00 s at name=disaggregated"));
  CHECK_FALSE(summary.pareto);
  const auto dir = scratch_dir("report-rl-bare");
  write_sweep_outputs(dir, summary);
  CHECK_FALSE(std::filesystem::exists(dir / "pareto.csv"));
  CHECK(std::filesystem::exists(dir / "report.html"));
}

TEST_CASE("a two-axis RL sweep plots one series per value of the other axis, ticks only at swept values") {
  const auto rl = make_scenario_kind("rl", {"test", 0, 0});
  SweepManifest manifest = manifest_of(*rl, "s.yaml",
                                       {parse_sweep_param("cluster.pools.rollout.nodes=1,2,4"),
                                        parse_sweep_param("rollout.max_batch=32,128")});
  std::vector<std::map<std::string, std::string>> rows;
  for (const char* nodes : {"1", "2", "4"}) {
    for (const char* batch : {"32", "128"}) {
      const double step = 60.0 / std::stod(nodes) + (std::string(batch) == "32" ? 5.0 : 0.0);
      // As `rlsim sweep --skip-invalid` writes a point over memory: fits_memory 0, a reason, no figures.
      const bool over = std::string(nodes) == "4" && std::string(batch) == "128";
      rows.push_back({{"cluster.pools.rollout.nodes", nodes},
                      {"rollout.max_batch", batch},
                      {"step_time_s", over ? "" : std::to_string(step)},
                      {"fits_memory", over ? "0" : "1"},
                      {"invalid_reason", over ? "does not fit in GPU memory" : ""}});
    }
  }
  manifest.header.push_back("fits_memory");
  manifest.header.push_back("invalid_reason");
  const SweepTable table = make_table(manifest, rows);
  const SweepKindReport report = rl->sweep_report(table, manifest, own_objective(*rl));
  REQUIRE(report.plot);
  const LinePlot& plot = *report.plot;
  REQUIRE(plot.series.size() == 2);  // max_batch=128 and max_batch=32, step time only
  CHECK(plot.series[0].label == "step time, max_batch=128");
  CHECK(plot.series[1].label == "step time, max_batch=32");
  // The point that does not fit memory did not run: a gap in its series (never a value of 0), and
  // the subtitle counts it; it cannot be best.
  REQUIRE(plot.series[0].points.size() == 2);
  CHECK(plot.series[0].points[1].first == 2.0);
  REQUIRE(plot.series[1].points.size() == 3);
  CHECK(plot.series[1].points[0].first == 1.0);
  CHECK(plot.series[1].points[2].first == 4.0);
  CHECK_THAT(plot.subtitle, Catch::Contains("1 point not simulated"));
  REQUIRE(plot.best);
  CHECK(plot.best->x == 4.0);
  CHECK(plot.best->y == Approx(20.0));
  CHECK_THAT(plot.best->label, Catch::Contains("nodes=4") && Catch::Contains("max_batch=32"));
  const std::string svg = render_svg(plot);
  CHECK_THAT(svg,
             Catch::Contains(">1</text>") && Catch::Contains(">2</text>") && Catch::Contains(">4</text>"));
  CHECK_THAT(svg, !Catch::Contains(">3</text>") && !Catch::Contains(">4.5</text>"));
}

TEST_CASE("an AFD sweep is read per series: best batch under the target, knee, and their plot") {
  const auto afd = make_scenario_kind("afd", {"test", 0, 0});
  const SweepManifest manifest = manifest_of(*afd, "scenarios/afd-step3.yaml",
                                             {parse_sweep_param("cluster.nic.bandwidth=200Gbps,100Gbps"),
                                              parse_sweep_param("afd.batch=512,1024,2048")});
  auto row = [](const char* nic, const char* batch, const char* tpot, const char* tokens,
                const char* transfer, const char* meets, const char* attention_memory) {
    return std::map<std::string, std::string>{{"cluster.nic.bandwidth", nic},
                                              {"afd.batch", batch},
                                              {"batch", batch},
                                              {"tpot_s", seconds(tpot)},
                                              {"target_tpot_s", "0.05"},
                                              {"meets_target", meets},
                                              {"tokens_per_s_per_gpu", tokens},
                                              {"attention_s_per_layer", "0.00035"},
                                              {"transfer_s_per_layer", seconds(transfer)},
                                              {"ffn_s_per_layer", "0.00045"},
                                              {"attention_memory_fraction", attention_memory},
                                              {"ffn_memory_fraction", "0.5"},
                                              {"usd_per_1m_tokens", "1"}};
  };
  // 200Gbps: the transfer stays below compute, 1024 is the best batch meeting the target. 100Gbps:
  // transfer dominates from 1024, where the attention side no longer fits, so 512 is the best.
  const SweepTable table = make_table(manifest, {row("200Gbps", "512", "20", "100", "0.1", "1", "0.5"),
                                                 row("200Gbps", "1024", "30", "180", "0.2", "1", "0.6"),
                                                 row("200Gbps", "2048", "60", "200", "0.27", "0", "0.8"),
                                                 row("100Gbps", "512", "25", "90", "0.2", "1", "0.5"),
                                                 row("100Gbps", "1024", "40", "150", "0.5", "1", "1.2"),
                                                 row("100Gbps", "2048", "70", "160", "0.9", "0", "1.5")});
  const auto series = analyse_afd_sweep(table, manifest);
  REQUIRE(series.size() == 2);
  CHECK(series[0].label == "cluster.nic.bandwidth=200Gbps");
  CHECK(series[0].points == std::vector<long>{0, 1, 2});
  CHECK(series[0].best == 1);
  CHECK_FALSE(series[0].knee);
  CHECK(series[1].best == 3);
  CHECK(series[1].knee == 4);

  const SweepKindReport report = afd->sweep_report(table, manifest, own_objective(*afd));
  CHECK(report.columns.front() == "cluster.nic.bandwidth");  // the batch axis is the "batch" column
  CHECK(std::count(report.columns.begin(), report.columns.end(), "afd.batch") == 0);
  CHECK(report.findings ==
        "[cluster.nic.bandwidth=200Gbps] best batch under the 50 ms TPOT target: 1024 (TPOT 30.00 ms, 180 "
        "tokens/s per GPU, 1.000 USD per 1M tokens)\n"
        "[cluster.nic.bandwidth=200Gbps] knee: transfer does not dominate within the swept batches (at most "
        "60 % of the slower compute side, at batch 2048)\n"
        "[cluster.nic.bandwidth=100Gbps] best batch under the 50 ms TPOT target: 512 (TPOT 25.00 ms, 90 "
        "tokens/s per GPU, 1.000 USD per 1M tokens)\n"
        "[cluster.nic.bandwidth=100Gbps] knee: transfer starts to dominate at batch 1024 (transfer 0.500 "
        "ms/layer vs attention 0.350, FFN 0.450)\n");
  REQUIRE(report.plot);
  CHECK(report.plot->series.size() == 4);  // TPOT and tokens/s per GPU for each series
  CHECK(report.plot->series[1].points.back() == std::make_pair(2048.0, 200.0));
  CHECK(report.plot->reference == 50.0);

  const SweepSummary summary = summarize_sweep(table, manifest, report, false);
  CHECK_THAT(summary.text,
             Catch::StartsWith("sweep results (6 of 6 points):\n  cluster.nic.bandwidth batch tpot_ms") &&
                 Catch::EndsWith(report.findings));
  REQUIRE(summary.svg);
  CHECK_THAT(*summary.svg, Catch::Contains("target TPOT 50 ms"));
}

TEST_CASE("an AFD knee counts the expert groups' collectives with the transfer") {
  const auto afd = make_scenario_kind("afd", {"test", 0, 0});
  const SweepManifest manifest = manifest_of(*afd, "s.yaml", {parse_sweep_param("afd.batch=1024,2048")});
  auto row = [](const char* batch, const char* transfer, const char* collectives) {
    return std::map<std::string, std::string>{{"afd.batch", batch},
                                              {"batch", batch},
                                              {"target_tpot_s", "0.05"},
                                              {"tpot_s", "0.08"},
                                              {"transfer_s_per_layer", seconds(transfer)},
                                              {"ffn_collectives_s_per_layer", seconds(collectives)},
                                              {"attention_s_per_layer", "0.0005"},
                                              {"ffn_s_per_layer", "0.0006"}};
  };
  // The transfer alone never exceeds the FFN's 0.6 ms; with the groups' all-gather and
  // reduce-scatter the communication does from batch 2048.
  const SweepTable grouped = make_table(manifest, {row("1024", "0.3", "0.2"), row("2048", "0.4", "0.3")});
  const auto series = analyse_afd_sweep(grouped, manifest);
  REQUIRE(series.size() == 1);
  CHECK(series[0].knee == 1);
  const SweepKindReport grouped_report = afd->sweep_report(grouped, manifest, own_objective(*afd));
  CHECK_THAT(
      grouped_report.findings,
      Catch::Contains("knee: communication starts to dominate at batch 2048 (transfer 0.400 + FFN group AG + "
                      "RS 0.300 ms/layer vs attention 0.500, FFN 0.600)"));
  // The printed table shows the collectives right after the transfer when a row has any.
  const auto& columns = grouped_report.columns;
  const auto transfer = std::find(columns.begin(), columns.end(), "transfer_s_per_layer");
  REQUIRE(transfer != columns.end());
  REQUIRE(transfer + 1 != columns.end());
  CHECK(*(transfer + 1) == "ffn_collectives_s_per_layer");
  // Plain EP (no collectives): the same transfer is no knee, and the words stay the transfer's.
  const SweepTable plain = make_table(manifest, {row("1024", "0.3", "0"), row("2048", "0.4", "0")});
  CHECK_FALSE(analyse_afd_sweep(plain, manifest)[0].knee);
  const SweepKindReport plain_report = afd->sweep_report(plain, manifest, own_objective(*afd));
  CHECK_THAT(plain_report.findings,
             Catch::Contains("knee: transfer does not dominate within the swept batches (at most 67 % of the "
                             "slower compute side, at batch 2048)"));
  // ... and its table has no column of zeros for collectives it does not run.
  CHECK(std::count(plain_report.columns.begin(), plain_report.columns.end(), "ffn_collectives_s_per_layer") ==
        0);
}

TEST_CASE("an AFD series that never meets the target says so") {
  const auto afd = make_scenario_kind("afd", {"test", 0, 0});
  const SweepManifest manifest = manifest_of(*afd, "s.yaml", {parse_sweep_param("afd.batch=4096")});
  const SweepTable table = make_table(manifest, {{{"afd.batch", "4096"},
                                                  {"batch", "4096"},
                                                  {"target_tpot_s", "0.05"},
                                                  {"tpot_s", "0.08"},
                                                  {"transfer_s_per_layer", "0.001"},
                                                  {"attention_s_per_layer", "0.0005"},
                                                  {"ffn_s_per_layer", "0.0005"}}});
  CHECK(afd->sweep_report(table, manifest, own_objective(*afd)).findings ==
        "no batch meets the 50 ms TPOT target (within memory)\n"
        "knee: transfer starts to dominate at batch 4096 (transfer 1.000 ms/layer vs attention 0.500, FFN "
        "0.500)\n");
}

TEST_CASE("the Pareto frontier: by increasing TPOT, each point cheaper than all before it") {
  SweepTable table;
  table.header = {"point", "tpot_s", "usd_per_1m_tokens"};
  table.rows = {{0, {"0", "10", "5"}},
                {1, {"1", "20", "3"}},
                {2, {"2", "15", "6"}},
                {3, {"3", "30", "3"}},
                {4, {"4", "40", "1"}}};
  CHECK(pareto_points(table) == std::vector<long>{0, 1, 4});
  table.header = {"point", "tpot_p50_s", "usd_per_1m_tokens"};  // RL sweeps name their TPOT so
  CHECK(pareto_points(table) == std::vector<long>{0, 1, 4});
}

TEST_CASE("a serving sweep names its lock-step points, what its points queued behind and short percentiles") {
  const auto serve = make_scenario_kind("serve", {"test", 0, 0});
  const SweepManifest manifest =
      manifest_of(*serve, "s.yaml", {parse_sweep_param("workload.concurrency=1,5,25,50")});
  // `queue` the share of TTFT queued, `kv` the KV cache at its fullest (batch occupancy 0.2).
  auto row = [](const char* clients, const char* p99, const char* together, const char* queue = "0",
                const char* kv = "0.3") {
    return std::map<std::string, std::string>{{"workload.concurrency", clients},
                                              {"ttft_p99_s", seconds(p99)},
                                              {"tpot_p99_s", seconds(p99)},
                                              {"sent_together_fraction", together},
                                              {"queue_share", queue},
                                              {"kv_use_max", kv},
                                              {"batch_occupancy", "0.2"}};
  };
  // One client never sends with another; 5 % is under the note's threshold; 45 % is over it; an
  // empty share (not a closed loop) is no lock-step whatever its neighbours. A queue under a tenth
  // of TTFT (points 0 and 1) has no cause named; with the KV cache full the cause is the cache.
  const SweepTable table =
      make_table(manifest, {row("1", "", "0"), row("5", "857.8", "0.05"), row("25", "1618.3", "0.45", "0.4"),
                            row("50", "900", "", "0.9", "0.99")});
  const SweepKindReport report = serve->sweep_report(table, manifest, own_objective(*serve));
  CHECK(report.findings ==
        "-: too few measured requests for that percentile (p99 needs at least 100: raise workload.requests)\n"
        "sent together (requests that left within 1 ms of another): point 2 (workload.concurrency=25) 45 %: "
        "clients there send in waves, so TTFT leans to the lock-step bound (rlsim run of a point with fixed "
        "lengths prints the run for the other bound)\n"
        "queued behind (where queueing took a tenth of TTFT or more; rlsim run prints what helps): point 2 "
        "(workload.concurrency=25) prefill_work, point 3 (workload.concurrency=50) kv_cache\n");
  // The printed table shows the missing percentile as "-", not as a blank that shifts the eye.
  const SweepSummary summary = summarize_sweep(table, manifest, report, false);
  CHECK_THAT(summary.text,
             Catch::Contains("                     1           0           -           0           -"));
  // Every percentile present and no loop in lock-step: nothing to say.
  const SweepTable quiet = make_table(manifest, {row("5", "857.8", "0.05")});
  CHECK(serve->sweep_report(quiet, manifest, own_objective(*serve)).findings.empty());
}

TEST_CASE("a plot whose x axis is padded below 0 labels the tick there 0, not -0") {
  // Not integers, so ticks are evenly spaced steps of 500 from the padded axis's start.
  LinePlot plot;
  PlotSeries ttft;
  ttft.points = {{40.5, 10.0}, {1600.5, 100.0}};
  plot.series.push_back(ttft);
  const std::string svg = render_svg(plot);
  CHECK_THAT(svg, Catch::Contains("text-anchor=\"middle\">0</text>"));  // an x tick
  CHECK_THAT(svg, !Catch::Contains(">-0<"));
}

TEST_CASE("an RL sweep's plot leaves invalid points out and rings the point the text names best") {
  const auto dir = scratch_dir("rl-sweep-invalid");
  const CliResult r = run_rlsim(
      "sweep scenarios/quickstart.yaml --set workload.steps=2 --param rollout.tp=1,2,3 "
      "--skip-invalid --quiet --out '" +
      dir.string() + "'");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  REQUIRE_THAT(r.out, Catch::Contains("best by step_time_s (lower is better): point 1 (rollout.tp=2)"));
  const std::string svg = slurp(dir / "sweep.svg");
  CHECK_THAT(svg, Catch::Contains("1 point not simulated (invalid, see sweep.csv): not drawn"));
  CHECK_THAT(svg, Catch::Contains("best by step_time_s: ") && Catch::Contains(" at tp=2"));
  CHECK_THAT(svg, !Catch::Contains("at tp=3"));
}

TEST_CASE("a serving sweep plots TTFT and TPOT with the SLO and rings the best point within it") {
  const auto dir = scratch_dir("serve-sweep-plot");
  const CliResult r = run_rlsim(
      "sweep scenarios/serve-llama3-70b.yaml --set workload.requests=150 --param workload.concurrency=1,5,25 "
      "--quiet --out '" +
      dir.string() + "'");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  // concurrency 25's p99 TTFT is past the 1 s SLO: more tokens/s, but not best.
  REQUIRE_THAT(
      r.out,
      Catch::Contains("best by output_tokens_per_s (higher is better): point 1 (workload.concurrency=5)"));
  const SweepTable table = read_sweep_csv(dir / "sweep.csv");
  CHECK(table.number(2, "meets_target") == 0.0);
  CHECK(table.number(1, "meets_target") == 1.0);
  const std::string svg = slurp(dir / "sweep.svg");
  CHECK_THAT(svg, Catch::Contains("p99 TTFT (ms)") && Catch::Contains("p99 TPOT (ms)") &&
                      Catch::Contains("TTFT SLO 1000 ms") && Catch::Contains("TPOT SLO 50 ms") &&
                      Catch::Contains("best by output_tokens_per_s within the SLO: concurrency=5"));
}
