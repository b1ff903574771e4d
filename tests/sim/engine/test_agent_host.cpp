// Agents as one actor per agent host (sim/engine/agent_host.h): tools share the host's cores first
// come first served, and the actors a run creates do not grow with its trajectories.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "sim/engine/simulation.h"
#include "tests/sim/sim_test_support.h"

using namespace rlsim;

namespace {

// One rollout GPU, one agent host; every trajectory has two turns of fixed lengths with a 1 s tool
// between them, so the first calls of a step come back together and their tools start together.
const char* kTools = R"(
model: qwen3-8b
cluster:
  pools:
    - {name: rollout, gpu: H800, nodes: 1, gpus_per_node: 1}
    - {name: train, gpu: H800, nodes: 1, gpus_per_node: 1}
  links:
    - {between: [rollout, train], bandwidth: 800Gbps, latency: 5us}
    - {between: [agents, rollout], bandwidth: 200Gbps}
    - {between: [dataplane, rollout], bandwidth: 200Gbps}
  agents: {hosts: 1, cores: 4}
  dataplane: {ledger: true}
workload:
  steps: 1
  prompts_per_step: 4
  samples_per_prompt: 1
  turns: 2
  tool_latency: 1s
  prompt_tokens: 512
  output_tokens: 64
rollout: {pool: rollout, tp: 1, max_batch: 64, engine: ideal}
training: {pool: train, algorithm: grpo, offload_optimizer: true}
)";

/// Per trajectory, from its first call's end to its second call's start (tool and any wait for a
/// core), sorted; and the actors the run created.
test::Figures tool_gaps(const std::vector<std::string>& overrides) {
  const Scenario s = test::load_inline("tools", kTools, overrides).scenario;
  return test::figures_in_child([&]() {
    const SimulationResult r = simulate(s);
    std::map<int, double> first_end, second_start;
    for (const LedgerEntry& call : r.ledger) {
      (call.turn == 0 ? first_end : second_start)[call.trajectory] =
          call.turn == 0 ? call.finish_s : call.submit_s;
    }
    std::vector<double> gaps;
    for (const auto& [trajectory, end] : first_end) gaps.push_back(second_start.at(trajectory) - end);
    std::sort(gaps.begin(), gaps.end());
    test::Figures out;
    out.set_list("gaps", gaps);
    out.set("actors", static_cast<double>(r.metrics.simgrid_actors));
    return out;
  });
}

}  // namespace

TEST_CASE("tools on a host with a core each run at once: every gap is the tool's 1 s") {
  const auto gaps = tool_gaps({}).list("gaps");
  REQUIRE(gaps.size() == 4);
  // The reply's way back (data plane record and transfer) is microseconds.
  for (double gap : gaps) CHECK(gap == Approx(1.0).margin(1e-3));
}

TEST_CASE("tools wait for a free core, first come first served: one core makes the gaps 1, 2, 3, 4 s") {
  const auto gaps = tool_gaps({"cluster.agents.cores=1"}).list("gaps");
  REQUIRE(gaps.size() == 4);
  for (size_t i = 0; i < gaps.size(); ++i)
    CHECK(gaps[i] == Approx(1.0 + static_cast<double>(i)).margin(1e-3));
}

TEST_CASE("the actors a run creates do not grow with its trajectories (one actor per agent host)") {
  const double few = tool_gaps({}).at("actors");
  const double many = tool_gaps({"workload.prompts_per_step=64"}).at("actors");
  CHECK(few > 0);
  CHECK(many == few);
}
