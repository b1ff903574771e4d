// The engine's time in a running instance: a production engine preset makes decoding slower than
// the kernels-only `ideal` engine, and chunked prefill gets five concurrent long prompts to their
// first token sooner than prefill_first, which prefills each alone and in turn (issue 14: five
// 5,000-token requests on 2 H100).
#include <catch2/catch.hpp>

#include "sim/engine/simulation.h"
#include "tests/sim/sim_test_support.h"

using namespace rlsim;

namespace {

// One step of five 5,000-token prompts on one TP-2 H100 instance.
const char* const kFivePrompts = R"(
name: five-prompts
model: llama-3-8b
cluster:
  pools:
    - {name: rollout, gpu: H100, nodes: 1, gpus_per_node: 2}
    - {name: train, gpu: H100, nodes: 1, gpus_per_node: 2}
  links:
    - {between: [rollout, train], bandwidth: 400Gbps}
    - {between: [agents, rollout], bandwidth: 100Gbps}
    - {between: [dataplane, rollout], bandwidth: 100Gbps}
workload: {steps: 1, prompts_per_step: 5, samples_per_prompt: 1, prompt_tokens: 5000, output_tokens: 200}
rollout: {pool: rollout, tp: 2}
training: {pool: train, recompute: full}  # 8B with full recompute fits two 80 GB GPUs
)";

test::Figures run(const std::vector<std::string>& overrides) {
  const Scenario s = test::load_inline("five-prompts", kFivePrompts, overrides).scenario;
  return test::figures_in_child([&]() {
    const SimulationResult r = simulate(s);
    test::Figures out;
    out.set("ttft_mean_s", r.metrics.ttft_s.mean);
    out.set("tpot_p50_s", r.metrics.tpot_s.p50);
    return out;
  });
}

}  // namespace

TEST_CASE("engine time: a production engine decodes slower than kernels alone") {
  const test::Figures ideal = run({"rollout.engine=ideal"});
  const test::Figures vllm = run({"rollout.engine=vllm-v1"});
  INFO("TPOT ideal " << ideal.at("tpot_p50_s") << " s, vllm-v1 " << vllm.at("tpot_p50_s") << " s");
  CHECK(vllm.at("tpot_p50_s") > ideal.at("tpot_p50_s"));
}

TEST_CASE("engine time: chunked prefill brings concurrent long prompts to their first token sooner") {
  const test::Figures alone = run({"rollout.scheduler=prefill_first"});
  const test::Figures chunked = run({"rollout.scheduler=chunked_prefill"});
  INFO("mean TTFT prefill_first " << alone.at("ttft_mean_s") << " s, chunked " << chunked.at("ttft_mean_s")
                                  << " s");
  CHECK(chunked.at("ttft_mean_s") > 0.0);
  CHECK(chunked.at("ttft_mean_s") < alone.at("ttft_mean_s"));
}
