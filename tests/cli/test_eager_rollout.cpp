// rollout.cuda_graphs: false runs every iteration eagerly (vLLM's enforce_eager): no iteration
// replays a graph, so each decoder layer takes the longer of its kernels and its launches instead
// of its kernels plus the graph gap, and the resolved scenario says which ran.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_support.h"

using namespace rlsim::test;
using nlohmann::json;

TEST_CASE("an eager rollout replays no CUDA graph and says so") {
  const auto dir = scratch_dir("eager-rollout");
  const std::string base = "run scenarios/quickstart.yaml --set workload.steps=2 --set rollout.max_batch=8";
  REQUIRE(run_rlsim(base + " --out '" + (dir / "graphs").string() + "'").exit_code == 0);
  REQUIRE(run_rlsim(base + " --set rollout.cuda_graphs=false --out '" + (dir / "eager").string() + "'")
              .exit_code == 0);
  const json graphs = json::parse(slurp(dir / "graphs" / "metrics.json"));
  const json eager = json::parse(slurp(dir / "eager" / "metrics.json"));
  // Decode batches of 8 replay graphs by default (vllm-v1: up to 512 tokens); eager they do not,
  // so the per-token time changes (in this model the eager launches hide behind kernels this
  // long, and the graph gap is gone: tests/models/test_engine_overhead.cpp prices both).
  CHECK(eager["inference"]["tpot_s"]["p50"].get<double>() !=
        graphs["inference"]["tpot_s"]["p50"].get<double>());
  CHECK_THAT(slurp(dir / "eager" / "resolved.yaml"), Catch::Contains("cuda_graphs: false"));
  CHECK_THAT(slurp(dir / "graphs" / "resolved.yaml"), Catch::Contains("cuda_graphs: true"));
}
