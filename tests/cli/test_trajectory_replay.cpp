// Replaying an RL run's own ledger (workload.trajectories): run with the ledger on, run again
// replaying its trajectories.jsonl, and the second ledger has the same calls with the same token
// counts, trajectory by trajectory and turn by turn.
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/cli/cli_support.h"

using namespace rlsim::test;
namespace fs = std::filesystem;

namespace {

const char* const kHead = R"(name: replay
seed: 5
model: qwen3-8b
cluster:
  pools:
    - {name: rollout, gpu: H20, nodes: 1, gpus_per_node: 2}
    - {name: train, gpu: H800, nodes: 1, gpus_per_node: 2}
  links:
    - {between: [rollout, train], bandwidth: 400Gbps}
    - {between: [agents, rollout], bandwidth: 100Gbps}
    - {between: [dataplane, rollout], bandwidth: 100Gbps}
  dataplane: {ledger: true}
rollout: {pool: rollout, tp: 1, max_batch: 16}
training: {pool: train, tp: 1, offload_optimizer: true}  # 8B on two 80 GB GPUs
workload:
  steps: 2
  prompts_per_step: 3
  samples_per_prompt: 2
)";

/// (trajectory, turn) → (prompt tokens, output tokens) of every call in a ledger.
std::map<std::pair<int, int>, std::pair<double, double>> calls_of(const std::string& jsonl) {
  std::map<std::pair<int, int>, std::pair<double, double>> calls;
  std::istringstream lines(jsonl);
  for (std::string line; std::getline(lines, line);) {
    const auto j = nlohmann::json::parse(line);
    calls[{j["trajectory"].get<int>(), j["turn"].get<int>()}] = {j["prompt_tokens"].get<double>(),
                                                                 j["output_tokens"].get<double>()};
  }
  return calls;
}

}  // namespace

TEST_CASE("run -> ledger -> replay gives the same calls with the same token counts") {
  const auto dir = scratch_dir("replay");
  std::ofstream(dir / "recorded.yaml") << kHead
                                       << "  turns: {uniform: {min: 1, max: 3}}\n"
                                          "  prompt_tokens: {uniform: {min: 100, max: 400}}\n"
                                          "  observation_tokens: {uniform: {min: 10, max: 80}}\n"
                                          "  output_tokens: {lognormal: {mean: 200, sigma: 0.7}, max: 1000}\n"
                                          "  tool_latency: {uniform: {min: 0.5s, max: 2s}}\n";
  REQUIRE(run_rlsim("run '" + (dir / "recorded.yaml").string() + "' --out '" + (dir / "a").string() + "'")
              .exit_code == 0);
  std::ofstream(dir / "replayed.yaml") << kHead << "  trajectories: a/trajectories.jsonl\n";
  const CliResult replay =
      run_rlsim("run '" + (dir / "replayed.yaml").string() + "' --out '" + (dir / "b").string() + "'");
  REQUIRE(replay.exit_code == 0);
  const auto recorded = calls_of(slurp(dir / "a" / "trajectories.jsonl"));
  const auto replayed = calls_of(slurp(dir / "b" / "trajectories.jsonl"));
  CHECK(recorded.size() > 12);  // 12 trajectories, some of several turns
  CHECK(replayed == recorded);
  // resolved.yaml names the file by its absolute path, so it re-runs from its own folder.
  const std::string recorded_file =
      fs::absolute(dir / "a" / "trajectories.jsonl").lexically_normal().string();
  CHECK_THAT(slurp(dir / "b" / "resolved.yaml"), Catch::Contains("trajectories: " + recorded_file));
  REQUIRE(
      run_rlsim("run '" + (dir / "b" / "resolved.yaml").string() + "' --out '" + (dir / "c").string() + "'")
          .exit_code == 0);
  CHECK(slurp(dir / "c" / "trajectories.jsonl") == slurp(dir / "b" / "trajectories.jsonl"));
}
