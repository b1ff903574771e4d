// The data plane's receive window: a burst of more calls than an instance's window holds
// (TrajectoryManager::kCallWindow) is served whole and in the order it was sent; the calls past the
// window wait in the data plane and leave once the instance takes calls in.
#include <algorithm>
#include <catch2/catch.hpp>

#include "sim/engine/simulation.h"
#include "sim/engine/trajectory_manager.h"
#include "tests/sim/sim_test_support.h"

using namespace rlsim;

TEST_CASE("a burst past an instance's window is served whole, in the order it was sent") {
  // 3,000 one-turn trajectories from one agent host onto one instance: 1,024 go at once, the rest
  // wait for room. prefill_first admits in arrival order, so first tokens follow trajectory ids.
  const char* yaml = R"(
name: dataplane-window
model: qwen3-8b
cluster:
  pools:
    - {name: rollout, gpu: H20, nodes: 1, gpus_per_node: 1}
    - {name: train, gpu: H800, nodes: 1, gpus_per_node: 8}
  links:
    - {between: [rollout, train], bandwidth: 400Gbps}
    - {between: [agents, rollout], bandwidth: 100Gbps}
    - {between: [dataplane, rollout], bandwidth: 100Gbps}
  agents: {hosts: 1, cores: 8}
  dataplane: {ledger: true}
workload: {steps: 1, prompts_per_step: 375, samples_per_prompt: 8, prompt_tokens: 128, output_tokens: 8}
rollout: {pool: rollout, max_batch: 256, scheduler: prefill_first}
training: {pool: train}
)";
  const Scenario s = test::load_inline("dataplane-window", yaml).scenario;
  REQUIRE(static_cast<size_t>(s.workload.prompts_per_step * s.workload.samples_per_prompt) >
          2 * TrajectoryManager::kCallWindow);
  const test::Figures figures = test::figures_in_child([&]() {
    const SimulationResult r = simulate(s);
    std::vector<LedgerEntry> calls = r.ledger;
    std::sort(calls.begin(), calls.end(),
              [](const LedgerEntry& a, const LedgerEntry& b) { return a.trajectory < b.trajectory; });
    std::vector<double> first_token_s;
    for (const LedgerEntry& call : calls) first_token_s.push_back(call.first_token_s);
    test::Figures out;
    out.set("calls", static_cast<double>(calls.size()));
    out.set("distinct", static_cast<double>(std::unique(calls.begin(), calls.end(),
                                                        [](const auto& a, const auto& b) {
                                                          return a.trajectory == b.trajectory;
                                                        }) -
                                            calls.begin()));
    out.set_list("first_token_s", first_token_s);
    return out;
  });
  CHECK(figures.at("calls") == 3000);
  CHECK(figures.at("distinct") == 3000);
  const std::vector<double> first_token_s = figures.list("first_token_s");
  CHECK(std::is_sorted(first_token_s.begin(), first_token_s.end()));
  // The later calls really waited: the last first token comes many batches after the first.
  CHECK(first_token_s.back() > first_token_s.front());
}
