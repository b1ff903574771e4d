// The engine catalog and a rollout's `engine:` and `scheduler:`: the built-in presets (each with
// its source), the default, each preset's default batching, a chosen preset and scheduler with
// parameters, and located errors for an unknown preset, scheduler or parameter out of range.
#include <catch2/catch.hpp>

#include "sim/scenario/catalog.h"
#include "tests/sim/sim_test_support.h"

using namespace rlsim;

TEST_CASE("engine presets: the built-in catalog has ideal and production engines, each sourced") {
  const Catalog catalog = load_builtin_catalog(RLSIM_TEST_SOURCE_DIR);
  for (const char* name : {"ideal", "vllm-v1", "vllm-v0", "sglang", "trtllm"}) {
    INFO(name);
    REQUIRE(catalog.engines.count(name) == 1);
    CHECK_FALSE(catalog.engines.at(name).source.empty());
  }
  const EngineOverhead& ideal = catalog.engines.at("ideal");
  CHECK(ideal.cpu_fixed_s + ideal.cpu_per_sequence_s + ideal.launch_gap_per_layer_s +
            ideal.graph_gap_per_layer_s + ideal.api_server_s ==
        0.0);
  CHECK(catalog.engines.at("vllm-v1").cpu_fixed_s > 0.0);
  // vLLM's API server as measured (client TTFT − server TTFT); the other production engines assume it.
  for (const char* name : {"vllm-v1", "vllm-v0", "sglang", "trtllm"}) {
    INFO(name);
    CHECK(catalog.engines.at(name).api_server_s == Approx(0.0108));
  }
  CHECK(catalog.engines.at("sglang").overlap_cpu);
  // TensorRT-LLM: overlap scheduler on by default, decode-only graphs up to trtllm-bench's 8192.
  const EngineOverhead& trtllm = catalog.engines.at("trtllm");
  CHECK(trtllm.overlap_cpu);
  CHECK_FALSE(trtllm.graph_mixed);
  CHECK(trtllm.graph_max_tokens == 8192);
}

TEST_CASE("engine presets: a rollout defaults to the production engine and its batching") {
  const Scenario s = test::load_inline("two-pools", test::kTwoPools).scenario;
  CHECK(s.rollout.engine == RolloutSpec{}.engine);
  CHECK(s.rollout.engine_overhead.name == RolloutSpec{}.engine);
  CHECK(s.rollout.scheduler.name == "chunked_prefill");  // vLLM V1 always chunks
}

TEST_CASE("engine presets: a rollout naming no scheduler runs its engine's default batching") {
  const Catalog catalog = load_builtin_catalog(RLSIM_TEST_SOURCE_DIR);
  CHECK(catalog.engines.at("vllm-v1").scheduler == "chunked_prefill");
  CHECK(catalog.engines.at("sglang").scheduler == "prefill_batches");  // mixed chunks off, its default
  CHECK(catalog.engines.at("vllm-v0").scheduler == "prefill_first");
  CHECK(catalog.engines.at("trtllm").scheduler == "inflight_batching");  // whole prompts, no chunking
  const Scenario trtllm =
      test::load_inline("two-pools", std::string(test::kTwoPools) + "rollout:\n  engine: trtllm\n").scenario;
  CHECK(trtllm.rollout.scheduler.name == "inflight_batching");
  CHECK(trtllm.rollout.scheduler.params.integer("token_budget") == 8192);
  // A scheduler the block names wins over the engine's.
  const Scenario chosen =
      test::load_inline("two-pools", std::string(test::kTwoPools) +
                                         "rollout:\n  engine: trtllm\n  scheduler: chunked_prefill\n")
          .scenario;
  CHECK(chosen.rollout.scheduler.name == "chunked_prefill");
  CHECK(chosen.rollout.scheduler.params.integer("token_budget") > 0);
}

TEST_CASE("engine presets: a catalog preset naming an unknown scheduler is an error at its line") {
  const std::string path = test::write_scenario(
      "engines-bad-scheduler", "engines:\n  - name: mine\n    source: test\n    scheduler: fifo\n");
  Catalog catalog = load_builtin_catalog(RLSIM_TEST_SOURCE_DIR);
  try {
    load_catalog_file(path, catalog);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.where().line == 4);
    CHECK_THAT(e.what(), Catch::Contains("fifo") && Catch::Contains("chunked_prefill"));
  }
}

TEST_CASE("engine presets: a rollout picks an engine and a scheduler with its parameters") {
  const Scenario s = test::load_inline("two-pools", std::string(test::kTwoPools) + R"(rollout:
  engine: sglang
  scheduler: {name: chunked_prefill, token_budget: 1024}
)")
                         .scenario;
  CHECK(s.rollout.engine_overhead.name == "sglang");
  CHECK(s.rollout.engine_overhead.overlap_cpu);
  CHECK(s.rollout.scheduler.name == "chunked_prefill");
  CHECK(s.rollout.scheduler.params.integer("token_budget") == 1024);
}

TEST_CASE("engine presets: an unknown engine or a budget out of range is an error at its line") {
  const InputError unknown = test::load_error(std::string(test::kTwoPools) + "rollout:\n  engine: vllm-v9\n");
  CHECK(unknown.where().line == 13);
  CHECK_THAT(unknown.what(), Catch::Contains("unknown engine 'vllm-v9'") && Catch::Contains("Known engines"));
  const InputError budget = test::load_error(
      std::string(test::kTwoPools) + "rollout:\n  scheduler: {name: chunked_prefill, token_budget: 4}\n");
  CHECK(budget.where().line == 13);
  CHECK_THAT(budget.what(), Catch::Contains("token_budget"));
}

TEST_CASE("rollout.cuda_graphs false leaves the engine preset no iteration to replay as a graph") {
  const Scenario graphs = rlsim::test::load_inline("graphs", rlsim::test::kTwoPools).scenario;
  const Scenario eager =
      rlsim::test::load_inline("eager", rlsim::test::kTwoPools, {"rollout.cuda_graphs=false"}).scenario;
  CHECK(graphs.rollout.cuda_graphs);
  CHECK(graphs.rollout.engine_overhead.graph_max_tokens > 0);
  CHECK_FALSE(eager.rollout.cuda_graphs);
  CHECK(eager.rollout.engine_overhead.graph_max_tokens == 0);
  CHECK(eager.rollout.engine_overhead.launch_gap_per_layer_s ==
        graphs.rollout.engine_overhead.launch_gap_per_layer_s);
}
