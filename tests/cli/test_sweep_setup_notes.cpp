// The notes under a sweep's table on what its points ran that the table does not show: an engine
// sweep whose scenario pins the batching (which engines ran another batching than their own, and
// the argument that lets each batch its own way; none when every engine ran its own or the
// batching is swept too), and points whose weights were multiplied at a 16-bit peak (weight-only);
// and a serving sweep that prints them.
#include <catch2/catch.hpp>

#include "tests/cli/cli_support.h"
#include "tools/kinds/sweep_setup_notes.h"
#include "tools/sweep/sweep_grid.h"

using namespace rlsim;
using Catch::Matchers::Contains;

namespace {

/// The value a point's --param gives `path`, or "".
std::string param(const LoadOptions& options, const std::string& path) {
  for (const std::string& assignment : options.params)
    if (assignment.rfind(path + "=", 0) == 0) return assignment.substr(path.size() + 1);
  return "";
}

/// A scenario as the loader would give it: the point's engine with its own batching from a small
/// table, `pinned` (when set) in place of that, and the point's card (H100 unless swept) with fp8
/// weights.
PointScenarioOf fake_loader(const std::string& pinned) {
  return [pinned](const LoadOptions& options) {
    Scenario s;
    PoolSpec pool;
    pool.name = "serve";
    pool.card.name = param(options, "cluster.pools.serve.gpu").empty()
                         ? "H100"
                         : param(options, "cluster.pools.serve.gpu");
    pool.card.peak_flops[Precision::bf16] = 1e15;
    if (pool.card.name == "H100") pool.card.peak_flops[Precision::fp8] = 2e15;
    s.cluster.pools.push_back(pool);
    s.rollout.pool = "serve";
    s.rollout.weights = Precision::fp8;
    s.rollout.engine = param(options, "serve.engine").empty() ? "vllm-v1" : param(options, "serve.engine");
    s.rollout.engine_overhead.scheduler =
        s.rollout.engine == "trtllm" ? "inflight_batching" : "chunked_prefill";
    s.rollout.scheduler.name = pinned.empty() ? s.rollout.engine_overhead.scheduler : pinned;
    return s;
  };
}

/// A manifest over `axes` and a table with every point finished (metric cells empty).
std::pair<SweepManifest, SweepTable> sweep_of(const std::vector<SweepAxis>& axes) {
  SweepManifest manifest;
  manifest.scenario = "s.yaml";
  manifest.axes = axes;
  SweepTable table;
  table.header = {"point"};
  for (const SweepAxis& axis : axes) table.header.push_back(axis.path);
  const SweepGrid grid(axes);
  for (long point = 0; point < grid.size(); ++point) {
    std::vector<std::string> cells{std::to_string(point)};
    for (const std::string& value : grid.values(point)) cells.push_back(value);
    table.rows[point] = cells;
  }
  return {manifest, table};
}

const SweepAxis kEngines{"serve.engine", {"vllm-v1", "trtllm"}};

}  // namespace

TEST_CASE("an engine sweep whose scenario sets the batching names the engines it overrode") {
  auto [manifest, table] = sweep_of({kEngines});
  CHECK(
      sweep_setup_notes(table, manifest, "serve", fake_loader("chunked_prefill")) ==
      "batching: every point ran serve.scheduler chunked_prefill as the scenario sets it, where trtllm's own "
      "is inflight_batching (rlsim list engines): to weigh the engines as they ship, add --unset "
      "serve.scheduler\n");
  manifest.sets = {"serve.scheduler=chunked_prefill"};
  CHECK_THAT(sweep_setup_notes(table, manifest, "serve", fake_loader("chunked_prefill")),
             Contains("as the --set gives it") && Contains("leave out --set serve.scheduler"));
}

TEST_CASE("no batching note when each engine ran its own, the batching is swept, or no engine is") {
  auto [manifest, table] = sweep_of({kEngines});
  CHECK(sweep_setup_notes(table, manifest, "serve", fake_loader("")).empty());
  auto [both, both_table] = sweep_of({kEngines, {"serve.scheduler", {"chunked_prefill"}}});
  CHECK(sweep_setup_notes(both_table, both, "serve", fake_loader("chunked_prefill")).empty());
  // The block's own axis only: a rollout.engine sweep says nothing of a serve deployment's engine.
  CHECK(sweep_setup_notes(table, manifest, "rollout", fake_loader("chunked_prefill")).empty());
  // A point that does not load is skipped: the table shows it has no figures.
  const PointScenarioOf broken = [](const LoadOptions&) -> Scenario { throw std::runtime_error("no"); };
  CHECK(sweep_setup_notes(table, manifest, "serve", broken).empty());
}

TEST_CASE("a sweep names the points whose weights were multiplied at a 16-bit peak") {
  auto [cards, cards_table] = sweep_of({{"cluster.pools.serve.gpu", {"H100", "A100"}}});
  CHECK(sweep_setup_notes(cards_table, cards, "serve", fake_loader("")) ==
        "weights: point 1 (cluster.pools.serve.gpu=A100): fp8 weights on A100, which has no fp8 peak: "
        "stored as fp8, multiplied at its bf16 peak (weight-only, as vLLM's Marlin kernels run them)\n");
  auto [all, all_table] = sweep_of({{"cluster.pools.serve.gpu", {"A100"}}, {"serve.engine", {"vllm-v1"}}});
  CHECK_THAT(sweep_setup_notes(all_table, all, "serve", fake_loader("")),
             Contains("weights: every point: fp8 weights on A100"));
}

TEST_CASE("serve: a sweep over engines on the bundled scenario says its scheduler overrode theirs") {
  const auto out = test::scratch_dir("pinned-batching");
  const std::string sweep =
      "sweep scenarios/serve-llama3-70b.yaml --set workload.requests=30 --param "
      "serve.engine=vllm-v1,trtllm -q --out '";
  const auto pinned = test::run_rlsim(sweep + (out / "pinned").string() + "'");
  REQUIRE(pinned.exit_code == 0);
  CHECK_THAT(pinned.out, Contains("batching: every point ran serve.scheduler chunked_prefill as the scenario "
                                  "sets it, where trtllm's own is inflight_batching"));
  const auto own = test::run_rlsim(
      "sweep scenarios/serve-llama3-70b.yaml --unset serve.scheduler --set "
      "workload.requests=30 --param serve.engine=vllm-v1,trtllm -q --out '" +
      (out / "own").string() + "'");
  REQUIRE(own.exit_code == 0);
  CHECK_THAT(own.out, !Contains("batching:") && !Contains("weights:"));
  const auto a100 = test::run_rlsim(
      "sweep scenarios/serve-llama3-70b.yaml --set workload.requests=30 --param "
      "cluster.pools.serve.gpu=H100,A100 -q --out '" +
      (out / "a100").string() + "'");
  REQUIRE(a100.exit_code == 0);
  CHECK_THAT(a100.out, Contains("weights: point 1 (cluster.pools.serve.gpu=A100): fp8 weights on A100"));
}
