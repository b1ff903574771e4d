// The engines' own all-reduces end to end: `rlsim calibrate` keeps aiconfigurator's table in the
// profile, `rlsim cost decode` prices a vLLM decode's all-reduces from the committed H100 profile's
// table (and NCCL for an engine without one), and a malformed table is an error at its location.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sim/scenario/profile_loader.h"
#include "tests/cli/cli_support.h"

namespace rlsim {
namespace {

const std::string kVllm = "data/measured/aiconfigurator-h100/custom_allreduce_perf_vllm-0.19.0.csv";

/// The committed file's latency (ms) for `source` at `gpus` GPUs and `elements` elements.
double committed_ms(const std::string& source, int gpus, long long elements) {
  std::ifstream in(std::string(RLSIM_TEST_SOURCE_DIR) + "/" + kVllm);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream split(line);
    for (std::string cell; std::getline(split, cell, ',');) cells.push_back(cell);
    if (cells.size() > 8 && cells[4] == source && cells[6] == std::to_string(gpus) &&
        cells[7] == std::to_string(elements))
      return std::stod(cells[8]);
  }
  FAIL("no row for " << source << " at " << gpus << " GPUs, " << elements << " elements");
  return 0.0;
}

TEST_CASE("rlsim calibrate keeps an engine's all-reduce table in the profile", "[cli][calibrate]") {
  const auto dir = test::scratch_dir("engine-allreduce");
  const auto r = test::run_rlsim("calibrate --hardware H100 --input " + kVllm + " --out '" +
                                 (dir / "p.yaml").string() + "'");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("engine all-reduce   gpus  launch") != std::string::npos);  // the summary table
  CHECK(r.out.find("vllm-v1             4     graph   23") != std::string::npos);
  const HardwareProfile p = load_profile((dir / "p.yaml").string());
  CHECK(p.device == "NVIDIA H100 80GB HBM3");  // from the file
  REQUIRE(p.engine_allreduces.size() == 6);    // 2, 4 and 8 GPUs, eager and in graphs
  const EngineAllReduce* graph = p.find_engine_allreduce("vllm-v1", 4, true);
  REQUIRE(graph != nullptr);
  CHECK(graph->bytes.size() == 23);
  // 8192 bf16 elements = 16 KiB: the file's time, to the profile's six significant digits.
  CHECK(graph->seconds_at(16384.0) ==
        Approx(committed_ms("vLLM_custom_graph", 4, 8192) * 1e-3).epsilon(1e-5));
  CHECK(graph->error.held_out_points == 21);
  CHECK(p.find_engine_allreduce("vllm-v1", 4, false) != nullptr);
  CHECK(p.find_engine_allreduce("sglang", 4, true) == nullptr);
}

TEST_CASE("rlsim cost decode prices vLLM's all-reduces from its own measured kernel", "[cli][cost]") {
  auto decode = [](const std::string& engine) {
    const auto r = test::run_rlsim(
        "cost decode --model llama-3-70b --hardware H100 --tp 4 --batch 1 --context 1000 --engine " + engine +
        " --profile calibrate/profiles/h100.yaml --json");
    REQUIRE(r.exit_code == 0);
    return nlohmann::json::parse(r.out);
  };
  // Llama-3-70B: 80 layers, two all-reduces each of one token's hidden state (8192 bf16 = 16 KiB),
  // replayed in a CUDA graph: 160 times the measured 16 KiB time at 4 GPUs.
  const auto vllm = decode("vllm-v1");
  CHECK(vllm.at("cuda_graph") == true);
  CHECK(vllm.at("allreduce_source") == "the engine's own all-reduce, measured in CUDA graphs (profile)");
  CHECK(vllm.at("allreduce_s").get<double>() ==
        Approx(160 * committed_ms("vLLM_custom_graph", 4, 8192) * 1e-3).epsilon(1e-5));
  // vLLM V0 has no table in the profile: NCCL's measured alpha-beta, about six times slower here.
  const auto v0 = decode("vllm-v0");
  CHECK(v0.at("allreduce_source") == "NCCL, the profile's measured alpha-beta");
  CHECK(v0.at("allreduce_s").get<double>() > 5.0 * vllm.at("allreduce_s").get<double>());
}

TEST_CASE("a malformed engine all-reduce table is an error at its location", "[cli][cost]") {
  const auto dir = test::scratch_dir("engine-allreduce-bad");
  const std::string good =
      "card: H100\nsm_count: 132\n"
      "engine_allreduces:\n  - engine: vllm-v1\n    gpus: 4\n    launch: graph\n"
      "    message_bytes: [1024, 2048]\n    time_us: [4, 5]\n";
  auto cost = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return test::run_rlsim(
        "cost decode --model llama-3-70b --hardware H100 --tp 4 --batch 1 --context 10 "
        "--profile '" +
        (dir / name).string() + "'");
  };
  REQUIRE(cost("good.yaml", good).exit_code == 0);
  std::string descending = good;
  descending.replace(descending.find("[1024, 2048]"), 12, "[2048, 1024]");
  const auto d = cost("descending.yaml", descending);
  CHECK(d.exit_code == 2);
  CHECK(d.err.find("descending.yaml:7:") != std::string::npos);
  CHECK(d.err.find("strictly ascending") != std::string::npos);
  std::string short_times = good;
  short_times.replace(short_times.find("[4, 5]"), 6, "[4]");
  const auto s = cost("short.yaml", short_times);
  CHECK(s.exit_code == 2);
  CHECK(s.err.find("short.yaml:8:") != std::string::npos);
  CHECK(s.err.find("one time per message size") != std::string::npos);
  std::string launch = good;
  launch.replace(launch.find("launch: graph"), 13, "launch: lazy");
  const auto l = cost("launch.yaml", launch);
  CHECK(l.exit_code == 2);
  CHECK(l.err.find("launch.yaml:6:") != std::string::npos);
  const auto twice = cost("twice.yaml", good +
                                            "  - engine: vllm-v1\n    gpus: 4\n    message_bytes: [1]\n"
                                            "    time_us: [1]\n");
  CHECK(twice.exit_code == 2);
  CHECK(twice.err.find("a second table for vllm-v1 at 4 GPUs") != std::string::npos);
}

TEST_CASE("an engine all-reduce table must name an engine preset", "[cli][cost]") {
  // A misspelt engine would price nothing: the instances would fall back to NCCL unnoticed.
  const auto dir = test::scratch_dir("engine-allreduce-name");
  const auto profile = dir / "misspelt.yaml";
  std::ofstream(profile) << "card: H100\nsm_count: 132\n"
                            "engine_allreduces:\n  - engine: vlm-v1\n    gpus: 2\n"
                            "    message_bytes: [1024, 2048]\n    time_us: [4, 5]\n";
  const auto cost = test::run_rlsim(
      "cost decode --model llama-3-70b --hardware H100 --tp 2 --batch 1 --context 10 --profile '" +
      profile.string() + "'");
  CHECK(cost.exit_code == 2);
  CHECK(cost.err.find("misspelt.yaml:4:") != std::string::npos);
  CHECK(cost.err.find("vlm-v1") != std::string::npos);
  CHECK(cost.err.find("vllm-v1") != std::string::npos);  // the presets it could have meant

  const auto out = dir / "out";
  const auto run = test::run_rlsim("run scenarios/serve-llama3-70b.yaml --set 'profile=" + profile.string() +
                                   "' --out '" + out.string() + "'");
  CHECK(run.exit_code == 2);
  CHECK(run.err.find("misspelt.yaml:4:") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace rlsim
