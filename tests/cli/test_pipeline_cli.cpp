// Pipeline-parallel inference instances (rollout.pp, serve.pp) through the CLI: a model too large
// for a node's GPUs is refused with the stages that fit as its fix and runs with them across
// nodes; impossible stage counts are refused at their field; on the same GPUs, stages give a
// slower token than tensor parallelism (each round still reads every weight once per
// micro-batch); a batch smaller than the stages leaves a pipeline bubble, reported by cause;
// `rlsim cost decode --pp` prices one round as the instances do.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_support.h"

using namespace rlsim::test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kServe = "scenarios/serve-llama3-70b.yaml";
/// Llama-3-70B in fp8 (65.7 GiB) on two one-GPU L20 nodes (45.0 GiB each): no TP in a node fits it.
const std::string kTwoL20 =
    " --set cluster.pools.serve.gpu=L20 --set cluster.pools.serve.gpus_per_node=1 "
    "--set cluster.pools.serve.nodes=2 --set serve.tp=1";

CliResult refused(const std::string& args) {
  const fs::path out = scratch_dir("pp-refused") / "out";
  CliResult r = run_rlsim(args + " --out " + out.string());
  CHECK(r.exit_code == 2);
  CHECK_FALSE(fs::exists(out));
  return r;
}

json serving_of(const std::string& sets) {
  const fs::path out = scratch_dir("pp-serve") / "out";
  const CliResult r =
      run_rlsim("run " + kServe + " --set workload.requests=80 " + sets + " --out " + out.string());
  REQUIRE(r.exit_code == 0);
  return json::parse(slurp(out / "metrics.json"))["serving"];
}

json decode_cost(const std::string& flags) {
  // FP8 KV: at tp 1 a batch of 32 with bf16 KV would not fit beside the 70B weights (refused).
  const CliResult r = run_rlsim(
      "cost decode --model llama-3-70b --hardware H100 --weights fp8 --kv-cache fp8 --context 1024 --json " +
      flags);
  REQUIRE(r.exit_code == 0);
  return json::parse(r.out);
}

}  // namespace

TEST_CASE("pipeline: a model no node's GPUs hold is refused with pp as the fix, and runs with it") {
  const CliResult r = refused("run " + kServe + kTwoL20);
  CHECK_THAT(r.err, Catch::StartsWith("--set serve.tp=1:"));
  CHECK_THAT(r.err, Catch::Contains("does not fit on L20 at tp 1"));
  CHECK_THAT(r.err, Catch::Contains("reserve (serve.activation_memory_fraction 0.1)"));
  CHECK_THAT(r.err, Catch::Contains("smallest fix: pp >= 2"));
  const CliResult ok = run_rlsim("validate " + kServe + kTwoL20 + " --set serve.pp=2");
  CHECK(ok.exit_code == 0);
  CHECK_THAT(ok.out, Catch::Contains("(tp 1 × pp 2)"));
  const fs::path out = scratch_dir("pp-two-nodes") / "out";
  const CliResult run = run_rlsim("run " + kServe + kTwoL20 +
                                  " --set serve.pp=2 --set workload.requests=40 --out " + out.string());
  REQUIRE(run.exit_code == 0);
  CHECK_THAT(run.out, Catch::Contains("1 instance(s) of tp 1 × pp 2"));
}

TEST_CASE("pipeline: stage counts that cannot be built are refused at pp") {
  CHECK_THAT(
      refused("run " + kServe + " --set serve.tp=1 --set serve.pp=3").err,
      Catch::StartsWith("--set serve.pp=3:") &&
          Catch::Contains("tp × pp (1 × 3 = 3 GPUs an instance) must divide the 2 GPUs of pool 'serve'"));
  CHECK_THAT(refused("run scenarios/afd-rollout.yaml --set rollout.pp=2").err,
             Catch::Contains("expected no rollout.pp with rollout.afd"));
  CHECK_THAT(refused("run scenarios/label-agentic.yaml --set policy.name=labels --set rollout.pp=2").err,
             Catch::StartsWith("--set rollout.pp=2:") &&
                 Catch::Contains("expected rollout.pp 1 with policy 'labels'"));
  // Colocated serves rollout on the training pool too: 8 training GPUs do not split into 6s.
  CHECK_THAT(
      refused("run scenarios/colocated-vs-disaggregated.yaml --set policy.name=colocated --set rollout.tp=2 "
              "--set rollout.pp=3 --set cluster.pools.rollout.nodes=3")
          .err,
      Catch::Contains("policy 'colocated' serves rollout on the training pool's GPUs too, so its 8 GPUs "
                      "must split into instances of tp × pp = 6 GPUs"));
  const CliResult layers =
      run_rlsim("cost decode --model llama-2-7b --hardware H100 --pp 40 --batch 1 --context 8");
  CHECK(layers.exit_code == 2);
  CHECK_THAT(layers.err, Catch::Contains("pp 40 leaves a stage without a layer: llama-2-7b has 32 layers"));
}

TEST_CASE("pipeline: on the same two GPUs, two stages give a slower token than TP 2") {
  const json tp = serving_of("--set serve.tp=2");
  const json pp = serving_of("--set serve.tp=1 --set serve.pp=2");
  // TP 2 reads half the weights per GPU each iteration; two stages read all of them per round.
  CHECK(pp["tpot_s"]["mean"].get<double>() > 1.2 * tp["tpot_s"]["mean"].get<double>());
  CHECK(pp["output_tokens_per_s"].get<double>() < tp["output_tokens_per_s"].get<double>());
}

TEST_CASE("pipeline: cost decode --pp prices a round as its largest micro-batch plus the sends") {
  const json round = decode_cost("--tp 1 --pp 2 --batch 64");
  const json half = decode_cost("--tp 1 --batch 32");
  CHECK(round["pp"] == 2);
  CHECK(round["tokens"] == 64);
  CHECK(round["kernels_s"].get<double>() == half["kernels_s"].get<double>());
  CHECK(round["pipeline_s"].get<double>() > 0.0);
  CHECK(half["pipeline_s"].get<double>() == 0.0);
  CHECK(round["seconds"].get<double>() ==
        Approx(half["seconds"].get<double>() + round["pipeline_s"].get<double>()).epsilon(1e-12));
}

TEST_CASE("pipeline: one request at a time through two stages idles each stage half the time") {
  const fs::path out = scratch_dir("pp-one-at-a-time") / "out";
  const CliResult r =
      run_rlsim("run " + kServe + " --set serve.tp=1 --set serve.pp=2 --set workload.concurrency=1 " +
                "--set workload.requests=4 --set workload.warmup=1 --out " + out.string());
  REQUIRE(r.exit_code == 0);
  double busy_us = 0.0, bubble_us = 0.0;
  const json trace = json::parse(slurp(out / "trace.json"));
  for (const json& event : trace["traceEvents"]) {
    if (event.value("ph", "") != "X") continue;
    if (event["name"] == "rollout") busy_us += event["dur"].get<double>();
    if (event["name"] == "pipeline_bubble") bubble_us += event["dur"].get<double>();
  }
  REQUIRE(busy_us > 0.0);
  CHECK(bubble_us == Approx(busy_us).epsilon(1e-9));
}

TEST_CASE("pipeline: stages idle for want of sequences are a bubble cause of their own") {
  const auto bubble_of = [](const std::string& sets) {
    const fs::path out = scratch_dir("pp-bubble") / "out";
    const CliResult r =
        run_rlsim("run scenarios/quickstart.yaml --set workload.steps=2 " + sets + " --out " + out.string());
    REQUIRE(r.exit_code == 0);
    return json::parse(slurp(out / "metrics.json"))["bubble"]["by_cause"];
  };
  // The step's tail leaves instances with a sequence or none: with two stages, one of them idles.
  const json piped = bubble_of("--set rollout.pp=2");
  REQUIRE(piped.contains("pipeline_bubble"));
  CHECK(piped["pipeline_bubble"].get<double>() > 0.0);
  CHECK_FALSE(bubble_of("").contains("pipeline_bubble"));
}
