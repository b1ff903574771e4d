// Feasibility as input checking (issue 15): setups that cannot fit in GPU memory exit 2 with
// FILE:LINE:COL at the field to change, the memory needed against the card's, and the smallest
// fix; nothing is written. `validate` prints the memory per pool; colocated runs say the DP they
// use; AFD sweeps never pick or draw a point that does not fit.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <regex>

#include "tests/cli/cli_support.h"

using namespace rlsim::test;
namespace fs = std::filesystem;

namespace {

/// Runs `rlsim run` with `sets` and checks it is refused before writing anything.
CliResult refused_run(const std::string& scenario, const std::string& sets) {
  const fs::path out = scratch_dir("refused") / "out";
  const CliResult r = run_rlsim("run " + scenario + " " + sets + " --out " + out.string());
  CHECK(r.exit_code == 2);
  CHECK_FALSE(fs::exists(out));
  return r;
}

/// The cells of one CSV line, honouring quotes (reasons hold commas).
std::vector<std::string> csv_cells(const std::string& line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      cells.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      cells.emplace_back();
    } else {
      cells.back() += c;
    }
  }
  return cells;
}

std::vector<std::map<std::string, std::string>> csv_rows(const fs::path& csv) {
  std::istringstream in(slurp(csv));
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = csv_cells(line);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    const std::vector<std::string> cells = csv_cells(line);
    REQUIRE(cells.size() == header.size());
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < cells.size(); ++i) row[header[i]] = cells[i];
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

TEST_CASE("Qwen2.5-32B at TP 1 on a 48 GB (45 GiB) L20 is refused at rollout.tp with the TP that fits") {
  const CliResult r =
      refused_run("scenarios/quickstart.yaml",
                  "--set model=qwen2.5-32b --set cluster.pools.rollout.gpu=L20 --set rollout.tp=1");
  CHECK_THAT(r.err, Catch::StartsWith("--set rollout.tp=1:"));
  CHECK_THAT(r.err, Catch::Contains("does not fit on L20 at tp 1"));
  CHECK_THAT(r.err, Catch::Contains("61.0 GiB of bf16 weights"));
  CHECK_THAT(r.err, Catch::Contains("against 45.0 GiB"));
  CHECK_THAT(r.err, Catch::Contains("smallest fix: tp >= 2"));
  // The boundary: at TP 2 each GPU holds 30.5 GiB of weights + 4.5 GiB reserve and it validates.
  const CliResult ok = run_rlsim(
      "validate scenarios/quickstart.yaml --set model=qwen2.5-32b --set cluster.pools.rollout.gpu=L20 "
      "--set rollout.tp=2 --set training.tp=8");
  CHECK(ok.exit_code == 0);
  CHECK_THAT(ok.out, Catch::Contains("KV capacity per instance"));
}

TEST_CASE("DeepSeek-V3 in bf16 at TP 8 on one H20 node is refused with fp8 as the fix") {
  const CliResult r = refused_run("scenarios/quickstart.yaml",
                                  "--set model=deepseek-v3 --set rollout.tp=8 --set rollout.weights=bf16");
  CHECK_THAT(r.err, Catch::StartsWith("--set rollout.tp=8:"));
  CHECK_THAT(r.err, Catch::Contains("does not fit on H20 at tp 8"));
  CHECK_THAT(r.err, Catch::Contains("against 95.6 GiB"));
  CHECK_THAT(r.err, Catch::Contains("smallest fix: weights: fp8"));
}

TEST_CASE("a sequence longer than the whole KV cache offers kv_cache: fp8 only when that is narrower") {
  // Llama-3.1-70B's window (131072 tokens) holds the sequence; one H100's cache left beside the
  // fp8 weights at tp 1 does not.
  const std::string huge = "--set model=llama-3.1-70b --set serve.tp=1 --set workload.prompt_tokens=100000";
  const CliResult bf16 = refused_run("scenarios/serve-llama3-70b.yaml", huge + " --set serve.kv_cache=bf16");
  CHECK_THAT(bf16.err, Catch::Contains("more than an instance's whole cache") &&
                           Catch::Contains("kv_cache: fp8, or a card with more memory"));
  const CliResult fp4 = refused_run("scenarios/serve-llama3-70b.yaml", huge + " --set serve.kv_cache=fp4");
  CHECK_THAT(fp4.err,
             Catch::Contains("more than an instance's whole cache") && !Catch::Contains("kv_cache: fp8"));
}

TEST_CASE("training Qwen2.5-32B at TP 1 x DP 32 without sharding is refused, naming the sharding that fits") {
  const CliResult r =
      refused_run("scenarios/quickstart.yaml",
                  "--set model=qwen2.5-32b --set cluster.pools.train.nodes=4 --set training.sharding=none");
  CHECK_THAT(r.err, Catch::StartsWith("--set training.sharding=none:"));
  CHECK_THAT(r.err, Catch::Contains("training qwen2.5-32b does not fit on H800 at dp 32 × tp 1 × pp 1"));
  CHECK_THAT(r.err, Catch::Contains("against 79.6 GiB"));
  CHECK_THAT(r.err, Catch::Contains("smallest fix: sharding: zero3"));
  // ZeRO-3 over the 32 GPUs fits.
  const CliResult ok = run_rlsim(
      "validate scenarios/quickstart.yaml --set model=qwen2.5-32b --set cluster.pools.train.nodes=4 "
      "--set training.sharding=zero3");
  CHECK(ok.exit_code == 0);
  CHECK_THAT(ok.out, Catch::Contains("dp 32 × tp 1 × pp 1 on H800, sharding zero3"));
}

TEST_CASE("an AFD point whose attention GPUs overflow their memory is refused at afd.batch") {
  const CliResult r = refused_run("scenarios/afd-step3.yaml",
                                  "--set model=glm-4.5 --set afd.kv_cache=bf16 --set afd.batch=2048");
  CHECK_THAT(r.err, Catch::StartsWith("--set afd.batch=2048:"));
  CHECK_THAT(r.err, Catch::Contains("the KV cache does not fit on H800"));
  CHECK_THAT(r.err, Catch::Contains("smallest fix: batch <= "));
}

TEST_CASE("colocated runs over two pools say the DP they train with") {
  const fs::path out = scratch_dir("colocated") / "out";
  const CliResult v =
      run_rlsim("validate scenarios/colocated-vs-disaggregated.yaml --set policy.name=colocated");
  CHECK(v.exit_code == 0);
  CHECK_THAT(v.out, Catch::Contains("dp 16 × tp 1"));
  const CliResult r = run_rlsim(
      "run scenarios/colocated-vs-disaggregated.yaml --set policy.name=colocated --set workload.steps=1 "
      "--out " +
      out.string());
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(slurp(out / "resolved.yaml"), Catch::Contains("dp: 16"));
}

TEST_CASE("an AFD sweep of GLM-4.5 stops before running, or with --skip-invalid keeps the points that fit") {
  const fs::path dir = scratch_dir("glm-sweep");
  const std::string grid =
      " --param afd.batch=512,1024,2048,4096,6144 --set model=glm-4.5 --set afd.kv_cache=bf16";
  const CliResult stopped =
      run_rlsim("sweep scenarios/afd-step3.yaml" + grid + " --out " + (dir / "a").string());
  CHECK(stopped.exit_code == 2);
  CHECK_THAT(stopped.err, Catch::Contains("the KV cache does not fit"));
  CHECK_FALSE(fs::exists(dir / "a" / "sweep.csv"));

  const CliResult r = run_rlsim("sweep scenarios/afd-step3.yaml" + grid + " --skip-invalid --pareto --out " +
                                (dir / "b").string());
  REQUIRE(r.exit_code == 0);
  const auto rows = csv_rows(dir / "b" / "sweep.csv");
  REQUIRE(rows.size() == 5);
  int fitting = 0;
  for (const auto& row : rows) {
    INFO(row.at("afd.batch"));
    if (row.at("fits_memory") == "1") {
      ++fitting;
      CHECK(row.at("invalid_reason").empty());
    } else {
      CHECK(row.at("fits_memory") == "0");
      CHECK(row.at("meets_target") == "0");
      CHECK_THAT(row.at("invalid_reason"), Catch::Contains("does not fit"));
    }
  }
  CHECK(fitting >= 1);
  CHECK(fitting < 5);
  CHECK_THAT(r.out, Catch::Contains("excluded point"));
  CHECK_THAT(r.out, Catch::Contains("best batch under the"));
  // The frontier holds only points that fit.
  for (const auto& row : csv_rows(dir / "b" / "pareto.csv")) CHECK(row.at("fits_memory") == "1");
}

TEST_CASE(
    "the AFD sweep of afd-step3.yaml's own grid with GLM-4.5 picks a best batch that fits and meets the "
    "target") {
  // The scenario's batch (2048) does not fit GLM-4.5's KV; the grid replaces it, point by point.
  const fs::path dir = scratch_dir("glm-default-grid");
  const CliResult r = run_rlsim("sweep scenarios/afd-step3.yaml --set model=glm-4.5 --skip-invalid --out " +
                                (dir / "out").string());
  REQUIRE(r.exit_code == 0);
  const auto rows = csv_rows(dir / "out" / "sweep.csv");
  REQUIRE(rows.size() == 12);
  std::smatch best;
  REQUIRE(std::regex_search(r.out, best, std::regex("best batch under the 50 ms TPOT target: (\\d+) ")));
  bool best_seen = false;
  for (const auto& row : rows) {
    INFO(row.at("afd.batch"));
    if (row.at("fits_memory") == "0") CHECK(row.at("meets_target") == "0");
    if (row.at("afd.batch") != best[1].str()) continue;
    best_seen = true;
    CHECK(row.at("fits_memory") == "1");
    CHECK(row.at("meets_target") == "1");
  }
  CHECK(best_seen);
  // The results table lists the points that ran; the others are named with their reason.
  const std::string table =
      r.out.substr(r.out.find("sweep results"), r.out.find("excluded point") - r.out.find("sweep results"));
  CHECK(table.find("\n  ") != std::string::npos);
  CHECK_FALSE(std::regex_search(table, std::regex("\n +0\n")));  // no row holding only meets_target 0
  const std::string svg = slurp(dir / "out" / "sweep.svg");
  CHECK_THAT(svg, Catch::Contains("(glm-4.5)") && Catch::Contains("not drawn: do not fit in memory") &&
                      Catch::Contains("attention 16x"));
}

TEST_CASE("validate of a serving scenario says what its pool holds, in requests of the workload's mean") {
  const CliResult r = run_rlsim("validate scenarios/serve-llama3-70b.yaml");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out,
             Catch::Contains("  serve pool serve: 1 instance of 2 H100 (tp 2)\n"
                             "    per GPU: weights 32.9 GiB + reserve 8.0 GiB + KV 38.8 GiB = 79.6 GiB\n"));
  // 5,000 + 500 tokens a request: 92 of them fit, where 100 clients would not (the KV cache binds).
  CHECK_THAT(r.out, Catch::Contains("KV capacity per instance: 508934 tokens, 92 sequences of 5500 tokens "
                                    "(max_batch 256)"));
  CHECK_THAT(r.out, Catch::Contains("max_model_len: 8192 tokens per sequence"));
  // No training pool in a serving scenario.
  CHECK_THAT(r.out, !Catch::Contains("training pool"));
  // A trace's rows give the mean: (110 + 8,200) / 2 = 4,155 tokens.
  const auto dir = scratch_dir("validate-serve-trace");
  std::ofstream(dir / "requests.csv") << "arrival_s,prompt_tokens,output_tokens\n0,100,10\n0.5,8000,200\n";
  std::ofstream(dir / "serve.yaml")
      << "kind: serve\nmodel: llama-3.1-8b\ncluster: {pools: [{name: s, gpu: H100, "
         "nodes: 1, gpus_per_node: 1}],\n  links: [{between: [agents, s], bandwidth: 100Gbps}, "
         "{between: [dataplane, s], bandwidth: 100Gbps}]}\nworkload: {trace: requests.csv}\n"
         "serve: {pool: s}\n";
  CHECK_THAT(run_rlsim("validate '" + (dir / "serve.yaml").string() + "'").out,
             Catch::Contains("sequences of 4155 tokens"));
}
