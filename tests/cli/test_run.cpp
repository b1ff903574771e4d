// `rlsim run` and `rlsim validate` end to end: outputs, determinism, trace shape, help.
#include <catch2/catch.hpp>
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
  CHECK(metrics["steps"] == 4);
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
    generated += call["output_tokens"].get<double>();
  }
  CHECK(calls == 2 * 32 * 8);
  const json metrics = json::parse(slurp(out / "metrics.json"));
  CHECK_THAT(generated / metrics["sim_time_s"].get<double>(),
             Catch::Matchers::WithinRel(metrics["throughput"]["tokens_per_s"].get<double>(), 1e-9));
}

TEST_CASE(
    "trace.json is valid Chrome trace JSON with one named track per GPU and load counters per instance") {
  const auto out = scratch_dir("trace") / "out";
  REQUIRE(run_rlsim("run scenarios/quickstart.yaml --out '" + out.string() + "'").exit_code == 0);
  json trace = json::parse(slurp(out / "trace.json"));
  REQUIRE(trace["traceEvents"].is_array());
  int threads = 0, spans = 0;
  std::set<int> counter_pids;
  std::set<std::string> instance_tracks;
  long running_max = 0;
  for (const auto& event : trace["traceEvents"]) {
    REQUIRE(event.contains("ph"));
    REQUIRE(event["pid"].is_number_integer());
    if (event["ph"] == "C") {  // counters belong to a process, not a thread
      counter_pids.insert(event["pid"].get<int>());
      if (event["name"] == "sequences") {
        running_max = std::max(running_max, event["args"]["running"].get<long>());
        CHECK(event["args"]["waiting"].get<long>() >= 0);
      }
      continue;
    }
    REQUIRE(event["tid"].is_number_integer());
    if (event["ph"] == "M" && event["name"] == "process_name" &&
        event["args"]["name"].get<std::string>().find(" load") != std::string::npos) {
      instance_tracks.insert(event["args"]["name"].get<std::string>());
    }
    if (event["ph"] == "M" && event["name"] == "thread_name" &&
        event["args"]["name"].get<std::string>().find("-gpu") != std::string::npos) {
      ++threads;
    }
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
  CHECK(threads == 16);
  CHECK(spans > 0);
  // One counter track per rollout instance (8 GPUs at TP 2), not per GPU; max_batch bounds it.
  CHECK(instance_tracks ==
        std::set<std::string>{"instance 0 load", "instance 1 load", "instance 2 load", "instance 3 load"});
  CHECK(counter_pids.size() == 4);
  CHECK(running_max > 0);
  CHECK(running_max <= 128);
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
