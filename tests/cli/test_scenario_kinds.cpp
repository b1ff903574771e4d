// The scenario kinds behind `rlsim run`, `validate` and `sweep`, in process: the registry and what
// a file's `kind:` picks, each kind's sweep columns, loading and checking (what validate prints),
// the default grid, and one simulation per kind (in a forked child: one SimGrid engine per process)
// giving the files `run` writes and a sweep row as wide as the kind's columns.
#include <algorithm>
#include <catch2/catch.hpp>

#include "tests/sim/sim_test_support.h"
#include "tools/kinds/scenario_kind.h"
#include "tools/report/afd_report.h"

using namespace rlsim;

namespace {

const std::string kQuickstart = std::string(RLSIM_TEST_SOURCE_DIR) + "/scenarios/quickstart.yaml";
const std::string kStep3 = std::string(RLSIM_TEST_SOURCE_DIR) + "/scenarios/afd-step3.yaml";

LoadOptions options_with(std::vector<std::string> overrides = {}) {
  LoadOptions options;
  options.overrides = std::move(overrides);
  options.data_dir = RLSIM_TEST_SOURCE_DIR;
  return options;
}

/// In a child: simulates `file` as its kind and returns the files `run` writes, the width of the
/// sweep row against the kind's columns, its first cell, and " summary" when there is one.
std::string simulate_in_child(const std::string& file, const LoadOptions& options) {
  const test::Figures figures = test::figures_in_child([&] {
    const auto kind = scenario_kind_of(file, options);
    const auto run = kind->load(file, options)->simulate({});
    const auto dir = std::filesystem::temp_directory_path() /
                     ("rlsim-kinds-" + std::to_string(::getpid()) + "-" + kind->name());
    StagedOutput output(dir);
    run->write_outputs(output, rlsim::OutputOptions{});
    std::string answer;
    for (const auto& name : output.files()) answer += name + ",";
    const std::vector<std::string> row = run->sweep_row();
    answer +=
        std::to_string(row.size()) + "/" + std::to_string(kind->sweep_columns().size()) + ":" + row.front();
    if (!run->summary().empty()) answer += " summary";
    test::Figures out;
    out.set_text("answer", answer);
    return out;
  });
  return figures.text("answer");
}

}  // namespace

TEST_CASE("the kinds registry: rl first (the default), afd, and an unknown name lists them") {
  const auto names = ScenarioKindRegistry::instance().names();
  REQUIRE(names.size() >= 2);
  CHECK(names[0] == "rl");
  CHECK(names[1] == "afd");
  CHECK(make_scenario_kind("afd", {"m", 0, 0})->name() == "afd");
  CHECK_THROWS_WITH(
      make_scenario_kind("dpo", {"sweep.json", 1, 1}),
      Catch::StartsWith("sweep.json:1:1: error: unknown scenario kind 'dpo'; valid values are: rl, afd"));
}

TEST_CASE("a file's kind: picks its kind, none is rl, an unknown one lists the kinds") {
  CHECK(scenario_kind_of(kQuickstart, options_with())->name() == "rl");
  CHECK(scenario_kind_of(kStep3, options_with())->name() == "afd");
  CHECK(scenario_kind_of(kStep3, options_with({"kind=rl"}))->name() == "rl");
  CHECK_THROWS_WITH(
      scenario_kind_of(kQuickstart, options_with({"kind=dpo"})),
      Catch::StartsWith("--set kind=dpo:1:6: error: unknown value 'dpo' for 'kind'; valid values "
                        "are: rl, afd"));
}

TEST_CASE("each kind's sweep columns") {
  CHECK(make_scenario_kind("rl", {})->sweep_columns() ==
        std::vector<std::string>{"step_time_s", "step_time_p99_s", "samples_per_s", "tokens_per_s",
                                 "bubble_fraction", "gpu_utilization", "tpot_p50_s", "usd_per_step",
                                 "usd_per_1m_tokens"});
  const auto& afd = make_scenario_kind("afd", {})->sweep_columns();
  CHECK(afd == afd_sweep_columns());
  for (const char* column :
       {"batch", "tpot_s", "target_tpot_s", "meets_target", "tokens_per_s_per_gpu", "attention_s_per_layer",
        "transfer_s_per_layer", "ffn_collectives_s_per_layer", "ffn_s_per_layer", "attention_memory_fraction",
        "ffn_memory_fraction", "usd_per_1m_tokens"}) {
    CHECK(std::count(afd.begin(), afd.end(), column) == 1);  // what the AFD sweep report reads
  }
}

TEST_CASE("loading checks a scenario and describes it as rlsim validate prints it") {
  const auto rl = make_scenario_kind("rl", {})->load(kQuickstart, options_with());
  CHECK(rl->description() == "quickstart: 16 GPUs in 2 pools, model qwen3-8b, policy disaggregated");
  CHECK(rl->default_sweep_axes().empty());
  const auto afd = make_scenario_kind("afd", {})->load(kStep3, options_with());
  CHECK(afd->description() ==
        "afd-step3: AFD, model step3, 16 attention GPUs on attention + 16 FFN GPUs on ffn, batch 2048 in 3 "
        "micro-batches");
  const auto axes = afd->default_sweep_axes();
  REQUIRE(axes.size() == 1);
  CHECK(axes[0].path == "afd.batch");
  CHECK(axes[0].values.size() == 12);
  CHECK(axes[0].values.front() == "128");

  CHECK_THROWS_WITH(make_scenario_kind("afd", {})->load(kStep3, options_with({"afd.micro_batch=2"})),
                    Catch::Contains("did you mean 'micro_batches'?"));
  CHECK_THROWS_WITH(make_scenario_kind("rl", {})->load(kStep3, options_with()),
                    Catch::Contains("AFD scenario"));
  CHECK_THROWS_AS(make_scenario_kind("afd", {})->load(kQuickstart, options_with()), InputError);
}

TEST_CASE("a simulated scenario writes what run writes and a sweep row as wide as its kind's columns") {
  CHECK(simulate_in_child(kStep3, options_with({"afd.batch=128"})) ==
        "metrics.json,trace.json,resolved.yaml,report.html,17/17:128 summary");
  CHECK_THAT(simulate_in_child(kQuickstart, options_with({"workload.steps=1"})),
             Catch::StartsWith("metrics.json,trace.json,resolved.yaml,report.html,9/9:") &&
                 Catch::EndsWith(" summary"));
  CHECK_THAT(
      simulate_in_child(kQuickstart, options_with({"workload.steps=1", "cluster.dataplane.ledger=true"})),
      Catch::StartsWith("metrics.json,trace.json,resolved.yaml,trajectories.jsonl,report.html,9/9:"));
}
