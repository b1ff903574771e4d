// Loading serving scenarios (sim/scenario/serve_reader.h, request_trace_reader.h): the deployment is
// read by the RL loader's read_rollout (its checks apply), the workload takes exactly one of
// concurrency, rate or trace, rates read as requests per second, defaults are written to
// resolved.yaml, and a bad request-trace row is an error at its FILE:LINE:COL.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "tests/sim/engine/serving/serve_test_support.h"

using namespace rlsim;

namespace {

InputError serve_error(const std::string& yaml) {
  try {
    test::load_serve_inline("bad-serve", yaml);
  } catch (const InputError& e) {
    return e;
  }
  throw std::logic_error("expected an InputError");
}

/// Writes `text` as a request trace beside the scenarios and returns its path.
std::string write_trace(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::path(test::write_scenario("trace-anchor", "")).parent_path();
  std::ofstream(dir / name) << text;
  return (dir / name).string();
}

}  // namespace

TEST_CASE("serve workloads: a closed loop, its warm-up default and the resolved file") {
  const auto loaded =
      test::load_serve_inline("closed-ok", test::serve_yaml("  requests: 40\n  concurrency: 5\n"));
  const ServeWorkloadSpec& w = loaded.scenario.workload;
  CHECK(w.arrivals == ArrivalMode::closed_loop);
  CHECK(w.concurrency == 5);
  CHECK(w.warmup() == 5);
  CHECK(loaded.scenario.deployment.rollout.pool == "serve");
  CHECK(loaded.scenario.deployment.rollout.max_batch == 8);
  CHECK_THAT(loaded.resolved_yaml,
             Catch::Contains("warmup: 5") && Catch::Contains("prompt_tokens") && Catch::Contains("router"));
}

TEST_CASE("serve workloads: a closed loop as wide as its requests is an offline batch, all measured") {
  for (const char* clients : {"40", "100"}) {
    INFO(clients);
    const auto loaded = test::load_serve_inline(
        "offline-ok", test::serve_yaml(std::string("  requests: 40\n  concurrency: ") + clients + "\n"));
    CHECK(loaded.scenario.workload.warmup() == 0);
  }
  // One request after the burst: the burst is warm-up again.
  const auto looped =
      test::load_serve_inline("looped-ok", test::serve_yaml("  requests: 40\n  concurrency: 39\n"));
  CHECK(looped.scenario.workload.warmup() == 39);
}

TEST_CASE("serve workloads: rates as requests per second") {
  for (const char* rate : {"4/s", "4", "4.0/s"}) {
    const auto loaded = test::load_serve_inline(
        "rate-ok", test::serve_yaml(std::string("  requests: 10\n  rate: ") + rate + "\n"));
    CHECK(loaded.scenario.workload.rate_per_s == 4.0);
    CHECK(loaded.scenario.workload.warmup() == 0);
  }
  CHECK_THAT(serve_error(test::serve_yaml("  requests: 10\n  rate: fast\n")).what(),
             Catch::Contains("bad-serve.yaml:13:") && Catch::Contains("requests per second"));
  CHECK_THAT(serve_error(test::serve_yaml("  requests: 10\n  rate: 0/s\n")).what(),
             Catch::Contains("requests per second > 0"));
}

TEST_CASE("serve workloads: exactly one of concurrency, rate or trace") {
  CHECK_THAT(serve_error(test::serve_yaml("  requests: 10\n")).what(),
             Catch::Contains("bad-serve.yaml:12:") && Catch::Contains("exactly one of concurrency") &&
                 Catch::Contains("found none"));
  // Both in the file: the file is to fix, so no --unset is offered (the CLI test covers a --set one).
  const std::string both =
      serve_error(test::serve_yaml("  requests: 10\n  concurrency: 2\n  rate: 3/s\n")).what();
  CHECK_THAT(both, Catch::EndsWith("found concurrency and rate"));
  CHECK_THAT(serve_error(test::serve_yaml("  concurrency: 2\n")).what(), Catch::Contains("requests"));
  CHECK_THAT(serve_error(test::serve_yaml("  requests: 10\n  concurrency: 2\n  warmup: 10\n")).what(),
             Catch::Contains("bad-serve.yaml:14:") && Catch::Contains("warmup"));
}

TEST_CASE("serve workloads: a shared system prompt, its groups, and located errors") {
  const auto loaded = test::load_serve_inline(
      "shared", test::serve_yaml(
                    "  requests: 10\n  rate: 2/s\n  shared_prefix_tokens: 100\n  shared_prefix_groups: 9\n"));
  CHECK(loaded.scenario.workload.shared_prefix_tokens == 100);
  CHECK(loaded.scenario.workload.shared_prefix_groups == 9);
  const auto plain = test::load_serve_inline("plain", test::serve_yaml("  requests: 10\n  rate: 2/s\n"));
  CHECK(plain.scenario.workload.shared_prefix_tokens == 0);
  CHECK(plain.scenario.workload.shared_prefix_groups == 1);
  CHECK_THAT(serve_error(test::serve_yaml("  requests: 10\n  rate: 2/s\n  shared_prefix_groups: 3\n")).what(),
             Catch::Contains("bad-serve.yaml:14:") && Catch::Contains("expected shared_prefix_tokens"));
  CHECK_THAT(
      serve_error(test::serve_yaml("  requests: 10\n  rate: 2/s\n  shared_prefix_tokens: -5\n")).what(),
      Catch::Contains("bad-serve.yaml:14:") && Catch::Contains("shared_prefix_tokens"));
  CHECK_THAT(
      serve_error(test::serve_yaml(
                      "  requests: 10\n  rate: 2/s\n  shared_prefix_tokens: 9\n  shared_prefix_groups: 0\n"))
          .what(),
      Catch::Contains("bad-serve.yaml:15:") && Catch::Contains("shared_prefix_groups"));
}

TEST_CASE("serve workloads: a prompt pool, and where it cannot be") {
  const auto pooled = test::load_serve_inline(
      "pool", test::serve_yaml("  requests: 10\n  concurrency: 2\n  prompt_pool: 4\n"));
  CHECK(pooled.scenario.workload.prompt_pool == 4);
  const auto plain =
      test::load_serve_inline("no-pool", test::serve_yaml("  requests: 10\n  concurrency: 2\n"));
  CHECK(plain.scenario.workload.prompt_pool == 0);
  // 0 is the default written out (resolved.yaml): every prompt new.
  const auto zero = test::load_serve_inline(
      "pool-0", test::serve_yaml("  requests: 10\n  concurrency: 2\n  prompt_pool: 0\n"));
  CHECK(zero.scenario.workload.prompt_pool == 0);
  CHECK_THAT(serve_error(test::serve_yaml("  requests: 10\n  concurrency: 2\n  prompt_pool: -4\n")).what(),
             Catch::Contains("bad-serve.yaml:14:") && Catch::Contains("prompt_pool"));
  CHECK_THAT(serve_error(test::serve_yaml("  requests: 10\n  concurrency: 2\n  shared_prefix_tokens: 50\n"
                                          "  prompt_pool: 4\n"))
                 .what(),
             Catch::Contains("bad-serve.yaml:15:") && Catch::Contains("not both"));
}

TEST_CASE("serve workloads: the API server's time defaults to the engine preset's and is resolved") {
  const std::string workload = "  requests: 10\n  concurrency: 2\n";
  const auto preset = test::load_serve_inline("api-default", test::serve_yaml(workload));
  CHECK(preset.scenario.workload.api_server_s == Approx(0.0108));  // vllm-v1's, the default engine
  CHECK(preset.scenario.workload.api_server_s ==
        preset.scenario.deployment.rollout.engine_overhead.api_server_s);
  CHECK_THAT(preset.resolved_yaml, Catch::Contains("api_server: 10.8ms"));
  // The kernels-only preset has none; a workload's own value wins over the preset's.
  std::string ideal_yaml = test::serve_yaml(workload);
  ideal_yaml.replace(ideal_yaml.find("max_batch: 8"), 12, "max_batch: 8, engine: ideal");
  CHECK(test::load_serve_inline("api-ideal", ideal_yaml).scenario.workload.api_server_s == 0.0);
  const auto own = test::load_serve_inline("api-own", test::serve_yaml(workload + "  api_server: 0 ms\n"));
  CHECK(own.scenario.workload.api_server_s == 0.0);
  CHECK_THAT(serve_error(test::serve_yaml(workload + "  api_server: -3 ms\n")).what(),
             Catch::Contains("bad-serve.yaml:14:") && Catch::Contains("api_server"));
  CHECK_THAT(serve_error(test::serve_yaml(workload + "  api_server: 5 tokens\n")).what(),
             Catch::Contains("bad-serve.yaml:14:") && Catch::Contains("api_server"));
}

TEST_CASE("serve deployments: the rollout reader's checks apply") {
  std::string yaml = test::serve_yaml("  requests: 10\n  concurrency: 2\n", 4);
  yaml.replace(yaml.find("tp: 1"), 5, "tp: 3");
  CHECK_THAT(serve_error(yaml).what(),
             Catch::Contains("bad-serve.yaml:9:") && Catch::Contains("GPUs of a node of pool"));
  std::string unknown = test::serve_yaml("  requests: 10\n  concurrency: 2\n");
  unknown.replace(unknown.find("max_batch"), 9, "max_bach");
  CHECK_THAT(serve_error(unknown).what(), Catch::Contains("did you mean 'max_batch'?"));
}

TEST_CASE("request traces: rows, relative paths, and located errors") {
  write_trace("good.csv", "arrival_s,prompt_tokens,output_tokens\n0,10,2\n1.5,20,3\n");
  const auto loaded = test::load_serve_inline("trace-ok", test::serve_yaml("  trace: good.csv\n"));
  CHECK(loaded.scenario.workload.requests == 2);
  CHECK(loaded.scenario.workload.trace[1].arrival_s == 1.5);
  CHECK(test::load_serve_inline("trace-first", test::serve_yaml("  trace: good.csv\n  requests: 1\n"))
            .scenario.workload.trace.size() == 1);

  const std::string bad_tokens =
      write_trace("bad-tokens.csv", "arrival_s,prompt_tokens,output_tokens\n0,10,2\n1,ten,3\n");
  CHECK_THAT(serve_error(test::serve_yaml("  trace: bad-tokens.csv\n")).what(),
             Catch::StartsWith(bad_tokens + ":3:3: error: expected prompt_tokens as a whole number"));
  const std::string no_output =
      write_trace("no-output.csv", "arrival_s,prompt_tokens,output_tokens\n0,10,0\n");
  CHECK_THAT(serve_error(test::serve_yaml("  trace: no-output.csv\n")).what(),
             Catch::StartsWith(no_output + ":2:6: error: expected output_tokens"));
  const std::string short_row = write_trace("short.csv", "arrival_s,prompt_tokens,output_tokens\n0,10\n");
  CHECK_THAT(serve_error(test::serve_yaml("  trace: short.csv\n")).what(),
             Catch::StartsWith(short_row + ":2:1: error: expected 3 fields"));
  const std::string header = write_trace("header.csv", "time,prompt,output\n0,10,2\n");
  CHECK_THAT(
      serve_error(test::serve_yaml("  trace: header.csv\n")).what(),
      Catch::StartsWith(header + ":1:1: error: expected the header 'arrival_s,prompt_tokens,output_tokens'"));
  const std::string backwards =
      write_trace("backwards.csv", "arrival_s,prompt_tokens,output_tokens\n2,10,2\n1,10,2\n");
  CHECK_THAT(serve_error(test::serve_yaml("  trace: backwards.csv\n")).what(),
             Catch::StartsWith(backwards + ":3:1: error: expected arrival_s in non-decreasing order"));
  CHECK_THAT(serve_error(test::serve_yaml("  trace: missing.csv\n")).what(),
             Catch::Contains("bad-serve.yaml:12:") && Catch::Contains("does not exist"));
  CHECK_THAT(serve_error(test::serve_yaml("  trace: good.csv\n  output_tokens: 5\n")).what(),
             Catch::Contains("expected no output_tokens with a trace"));
  // Past the physical bounds: 1e300 prompt tokens printed a TTFT of 4e33 ms with exit 0.
  const std::string huge = write_trace("huge.csv", "arrival_s,prompt_tokens,output_tokens\n0,1e300,10\n");
  CHECK_THAT(serve_error(test::serve_yaml("  trace: huge.csv\n")).what(),
             Catch::StartsWith(huge + ":2:3: error: expected prompt_tokens") && Catch::Contains("to 1e+08"));
  const std::string late = write_trace("late.csv", "arrival_s,prompt_tokens,output_tokens\n1e300,10,10\n");
  CHECK_THAT(serve_error(test::serve_yaml("  trace: late.csv\n")).what(),
             Catch::StartsWith(late + ":2:1: error: expected arrival_s"));
}
