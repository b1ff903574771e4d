// `rlsim run` and `rlsim validate` end to end: outputs, determinism, trace shape, help.
#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "sim/platform/gpu_state.h"
#include "tests/cli/cli_support.h"

using namespace rlsim::test;
using nlohmann::json;

TEST_CASE("run writes metrics, trace and resolved scenario, and prints a summary") {
  const auto out = scratch_dir("quickstart") / "out";
  CliResult r = run_rlsim("run scenarios/quickstart.yaml --out '" + out.string() + "'");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("bubble") && Catch::Contains("advice:"));
  json metrics = json::parse(slurp(out / "metrics.json"));
  for (const char* key : {"steps", "sim_time_s", "step_time_s", "throughput", "bubble", "gpu_utilization",
                          "pools", "inference", "cost", "advice", "policy", "seed"}) {
    CHECK(metrics.contains(key));
  }
  CHECK(metrics["steps"] == 8);
  CHECK(metrics["bubble"]["fraction"].get<double>() > 0.0);
  CHECK(metrics["bubble"]["by_cause"].contains("train_waits_rollout"));
  CHECK(metrics["pools"]["rollout"]["gpus"] == 8);
  CHECK_THAT(slurp(out / "resolved.yaml"), Catch::Contains("max_batch: 128"));
}

TEST_CASE("same scenario and seed give byte-identical outputs, another seed differs") {
  const auto dir = scratch_dir("determinism");
  REQUIRE(run_rlsim("run scenarios/quickstart.yaml --out '" + (dir / "a").string() + "'").exit_code == 0);
  REQUIRE(run_rlsim("run scenarios/quickstart.yaml --out '" + (dir / "b").string() + "'").exit_code == 0);
  REQUIRE(
      run_rlsim("run scenarios/quickstart.yaml --seed 2 --out '" + (dir / "c").string() + "'").exit_code ==
      0);
  CHECK(slurp(dir / "a" / "metrics.json") == slurp(dir / "b" / "metrics.json"));
  CHECK(slurp(dir / "a" / "trace.json") == slurp(dir / "b" / "trace.json"));
  CHECK(slurp(dir / "a" / "metrics.json") != slurp(dir / "c" / "metrics.json"));
}

TEST_CASE(
    "with dataplane.ledger, run writes one trajectories.jsonl line per LLM call, consistent with the run") {
  const auto out = scratch_dir("ledger") / "out";
  CliResult r = run_rlsim(
      "run scenarios/quickstart.yaml --set workload.steps=2 --set cluster.dataplane.ledger=true --out '" +
      out.string() + "'");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("trajectories.jsonl"));
  std::istringstream lines(slurp(out / "trajectories.jsonl"));
  std::string line;
  int calls = 0;
  double generated = 0.0;
  std::set<std::pair<int, int>> seen;  // (trajectory, turn)
  while (std::getline(lines, line)) {
    const json call = json::parse(line);
    ++calls;
    INFO(line);
    CHECK(seen.insert({call["trajectory"].get<int>(), call["turn"].get<int>()}).second);
    CHECK(call["turn"] == 0);  // quickstart trajectories are single calls
    CHECK(call["instance"].get<int>() >= 0);
    CHECK(call["instance"].get<int>() < 4);  // 8 GPUs at TP 2
    CHECK(call["output_tokens"].get<double>() >= 1.0);
    CHECK(call["first_token_s"].get<double>() > call["submit_s"].get<double>());
    CHECK(call["finish_s"].get<double>() >= call["first_token_s"].get<double>());
    CHECK(call["weight_version"].get<double>() == call["step"].get<double>());  // synchronous: on-policy
    if (call["step"] == 1) generated += call["output_tokens"].get<double>();
  }
  CHECK(calls == 2 * 32 * 8);
  // Two steps: the second is the steady state (the first is warm-up), and the throughput is its
  // tokens over its window.
  const json metrics = json::parse(slurp(out / "metrics.json"));
  REQUIRE(metrics["steady_state"]["steps"] == json::array({1}));
  const double window_s =
      metrics["steady_state"]["end_s"].get<double>() - metrics["steady_state"]["start_s"].get<double>();
  CHECK_THAT(generated / window_s,
             Catch::Matchers::WithinRel(metrics["throughput"]["tokens_per_s"].get<double>(), 1e-9));
}

TEST_CASE(
    "trace.json is valid Chrome trace JSON with one named track per instance and load counters per "
    "instance") {
  const auto dir = scratch_dir("trace");
  const auto out = dir / "out";
  REQUIRE(run_rlsim("run scenarios/quickstart.yaml --out '" + out.string() + "'").exit_code == 0);
  json trace = json::parse(slurp(out / "trace.json"));
  REQUIRE(trace["traceEvents"].is_array());
  int spans = 0;
  std::set<int> counter_pids;
  std::set<std::string> instance_tracks, threads;
  long running_max = 0, preempted = -1;
  for (const auto& event : trace["traceEvents"]) {
    REQUIRE(event.contains("ph"));
    REQUIRE(event["pid"].is_number_integer());
    if (event["ph"] == "C") {  // counters belong to a process, not a thread
      counter_pids.insert(event["pid"].get<int>());
      if (event["name"] == "sequences") {
        running_max = std::max(running_max, event["args"]["running"].get<long>());
        CHECK(event["args"]["waiting"].get<long>() >= 0);
      }
      if (event["name"] == "preemptions") {  // cumulative: never decreases within an instance
        CHECK(event["args"]["sequences"].get<long>() >= 0);
        preempted = std::max(preempted, event["args"]["sequences"].get<long>());
      }
      continue;
    }
    REQUIRE(event["tid"].is_number_integer());
    if (event["ph"] == "M" && event["name"] == "process_name" && event["pid"].get<int>() >= 1000) {
      instance_tracks.insert(event["args"]["name"].get<std::string>());
    }
    if (event["ph"] == "M" && event["name"] == "thread_name") threads.insert(event["args"]["name"]);
    if (event["ph"] == "X") {
      ++spans;
      CHECK(event["ts"].get<double>() >= 0.0);
      CHECK(event["dur"].get<double>() > 0.0);
      using rlsim::StateKind;
      const std::optional<StateKind> kind = rlsim::parse_enum<StateKind>(event["cat"].get<std::string>());
      REQUIRE(kind);
      CHECK((*kind == StateKind::busy || *kind == StateKind::wait || *kind == StateKind::switching));
    }
  }
  // 8 rollout GPUs at TP 2: one track per instance, not its two identical GPU tracks; the 8
  // training GPUs train in lockstep: one track.
  CHECK(threads == std::set<std::string>{"instance 0 (rollout-node0-gpu0, rollout-node0-gpu1)",
                                         "instance 1 (rollout-node0-gpu2, rollout-node0-gpu3)",
                                         "instance 2 (rollout-node0-gpu4, rollout-node0-gpu5)",
                                         "instance 3 (rollout-node0-gpu6, rollout-node0-gpu7)",
                                         "trainer (8 GPUs: train-node0-gpu0 … train-node0-gpu7)",
                                         "trajectory-manager"});
  CHECK(spans > 0);
  // One counter track per rollout instance (8 GPUs at TP 2), not per GPU; max_batch bounds it.
  CHECK(instance_tracks == std::set<std::string>{"instance 0", "instance 1", "instance 2", "instance 3"});
  CHECK(counter_pids.size() == 4);
  CHECK(running_max > 0);
  CHECK(running_max <= 128);
  CHECK(preempted == 0);  // quickstart's KV never runs out

  // --trace-gpus: every GPU its own track again, the same spans on each GPU of an instance.
  const auto per_gpu = dir / "per-gpu";
  REQUIRE(
      run_rlsim("run scenarios/quickstart.yaml --trace-gpus --out '" + per_gpu.string() + "'").exit_code ==
      0);
  const json gpu_trace = json::parse(slurp(per_gpu / "trace.json"));
  std::set<std::string> gpu_threads;
  for (const auto& event : gpu_trace["traceEvents"]) {
    if (event["ph"] == "M" && event["name"] == "thread_name") gpu_threads.insert(event["args"]["name"]);
  }
  CHECK(gpu_threads.size() == 17);  // and the trajectory manager
  CHECK(gpu_threads.count("rollout-node0-gpu7") == 1);
  CHECK(gpu_threads.count("train-node0-gpu3") == 1);
  const auto spans_per_pool = [](const json& t) {
    std::map<int, int> per_pid;  // pid 1 = pool rollout, 2 = pool train
    for (const auto& event : t["traceEvents"])
      if (event["ph"] == "X") ++per_pid[event["pid"].get<int>()];
    return per_pid;
  };
  const auto collapsed = spans_per_pool(trace), expanded = spans_per_pool(gpu_trace);
  CHECK(expanded.at(1) == 2 * collapsed.at(1));  // TP 2
  CHECK(expanded.at(2) == 8 * collapsed.at(2));  // 8 GPUs in lockstep
  CHECK(slurp(out / "metrics.json") == slurp(per_gpu / "metrics.json"));
}

TEST_CASE("validate checks without writing, help teaches with examples, version prints") {
  CliResult ok = run_rlsim("validate scenarios/quickstart.yaml");
  CHECK(ok.exit_code == 0);
  CHECK_THAT(ok.out, Catch::Contains("ok"));
  for (const char* command : {"run", "validate", "list"}) {
    CliResult help = run_rlsim(std::string(command) + " --help");
    CHECK(help.exit_code == 0);
    CHECK_THAT(help.out, Catch::Contains("rlsim " + std::string(command)));
  }
  CHECK_THAT(run_rlsim("--version").out, Catch::Contains("rlsim 0."));
  CHECK(run_rlsim("run").exit_code == 2);
  CHECK(run_rlsim("frobnicate").exit_code == 2);
}
