// Sequences past the model's context window are refused as input (sim/scenario/context_window_check.h):
// a serving request, an RL trajectory's limit or first prompt, a trace row, an AFD context or a
// costed iteration longer than what an engine serves of the model exits 2 at the field to change,
// naming the window and where it comes from (a trace row or a recorded turn at its FILE:LINE);
// max_model_len defaults to the window and may be set up to the long-context extension the model's
// authors document, not past it.
#include <catch2/catch.hpp>
#include <fstream>

#include "tests/cli/cli_support.h"

using namespace rlsim::test;
namespace fs = std::filesystem;

namespace {

const std::string kServe = "scenarios/serve-llama3-70b.yaml";
const std::string kRl = "scenarios/quickstart.yaml";

CliResult validate(const std::string& scenario, const std::string& sets) {
  return run_rlsim("validate " + scenario + " " + sets);
}

}  // namespace

TEST_CASE("a serving request past Llama-3-70B's 8192-token window is refused at its field, one at it runs") {
  const fs::path out = scratch_dir("context-serve") / "out";
  const CliResult r =
      run_rlsim("run " + kServe + " --set workload.prompt_tokens=7693 --out '" + out.string() + "'");
  CHECK(r.exit_code == 2);
  CHECK_FALSE(fs::exists(out));
  CHECK_THAT(r.err, Catch::StartsWith("--set workload.prompt_tokens=7693:"));
  CHECK_THAT(r.err,
             Catch::Contains("the largest request (7693 tokens of prompt + 500 tokens of output) passes "
                             "serve.max_model_len (8192 tokens; llama-3-70b's context window is 8192 "
                             "tokens (max_position_embeddings))"));
  CHECK_THAT(r.err, Catch::Contains("a real engine answers it with an error"));
  // 7692 + 500 is exactly the window.
  CHECK(validate(kServe, "--set workload.prompt_tokens=7692").exit_code == 0);
  // Llama-3.1-70B has the same layers and a 131072-token window.
  CHECK(validate(kServe, "--set workload.prompt_tokens=7693 --set model=llama-3.1-70b").exit_code == 0);
}

TEST_CASE(
    "max_model_len defaults to the window, binds when set shorter and stops at the documented extension") {
  const CliResult past = validate(kServe, "--set serve.max_model_len=8193");
  CHECK(past.exit_code == 2);
  CHECK_THAT(past.err, Catch::StartsWith("--set serve.max_model_len=8193:") &&
                           Catch::Contains("expected at most 8192 tokens: llama-3-70b's context window") &&
                           Catch::Contains("an engine refuses a longer max_model_len"));
  const CliResult shorter = validate(kServe, "--set serve.max_model_len=5000");
  CHECK(shorter.exit_code == 2);
  CHECK_THAT(shorter.err, Catch::Contains("passes serve.max_model_len (5000 tokens;") &&
                              Catch::Contains("or raise serve.max_model_len (up to 8192)"));
  // Qwen3-32B: 40960 by default, up to 131072 with YaRN.
  const std::string qwen = "--set model=qwen3-32b --set workload.prompt_tokens=60000";
  const CliResult qwen_default = validate(kServe, qwen);
  CHECK(qwen_default.exit_code == 2);
  CHECK_THAT(qwen_default.err,
             Catch::Contains("serve.max_model_len (40960 tokens; qwen3-32b's context window is "
                             "40960 tokens (max_position_embeddings), 131072 tokens with the long-context "
                             "extension its authors document)") &&
                 Catch::Contains("or raise serve.max_model_len (up to 131072)"));
  CHECK(validate(kServe, qwen + " --set serve.max_model_len=65536").exit_code == 0);
  const CliResult qwen_past = validate(kServe, qwen + " --set serve.max_model_len=131073");
  CHECK(qwen_past.exit_code == 2);
  CHECK_THAT(qwen_past.err, Catch::Contains("expected at most 131072 tokens"));
  // The resolved scenario says which length the engine was given.
  const fs::path out = scratch_dir("context-resolved") / "out";
  REQUIRE(run_rlsim("run " + kServe + " --set workload.requests=30 --out '" + out.string() + "'").exit_code ==
          0);
  CHECK_THAT(slurp(out / "resolved.yaml"), Catch::Contains("max_model_len: 8192"));
}

TEST_CASE("a serving length distribution without a cap is refused: its draws have no largest request") {
  const CliResult r = validate(kServe, "--set 'workload.output_tokens={lognormal: {mean: 500, sigma: 0.6}}'");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err,
             Catch::StartsWith("--set workload.output_tokens=") &&
                 Catch::Contains("a lognormal without a cap could draw a request past serve.max_model_len") &&
                 Catch::Contains("expected a cap (max: …)"));
  CHECK(validate(kServe, "--set 'workload.output_tokens={lognormal: {mean: 500, sigma: 0.6}, max: 3192}'")
            .exit_code == 0);
  CHECK(validate(kServe, "--set 'workload.output_tokens={lognormal: {mean: 500, sigma: 0.6}, max: 3193}'")
            .exit_code == 2);
}

TEST_CASE("a request trace with a row past the window or the KV cache is refused at the row's line") {
  const fs::path dir = scratch_dir("context-trace");
  std::ofstream(dir / "requests.csv")
      << "arrival_s,prompt_tokens,output_tokens\n0,100,10\n# a comment line\n0.5,8000,200\n0.7,300,10\n";
  // Within Llama-3.1-70B's 131072 tokens, but more than one H100's cache beside its fp8 weights.
  std::ofstream(dir / "long.csv") << "arrival_s,prompt_tokens,output_tokens\n0,100,10\n0.5,100000,200\n";
  std::ofstream(dir / "serve.yaml")
      << "kind: serve\nmodel: llama-3-8b\ncluster: {pools: [{name: s, gpu: H100, "
         "nodes: 1, gpus_per_node: 1}]}\nworkload: {trace: requests.csv}\n"
         "serve: {pool: s}\n";
  const CliResult r = run_rlsim("validate '" + (dir / "serve.yaml").string() + "'");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::StartsWith((dir / "requests.csv").string() + ":4:1: error:"));
  CHECK_THAT(r.err,
             Catch::Contains("request 2 of the trace (8000 tokens of prompt + 200 tokens of output) passes "
                             "serve.max_model_len (8192 tokens; llama-3-8b's context window"));
  const CliResult kv = run_rlsim("validate '" + (dir / "serve.yaml").string() +
                                 "' --set workload.trace=long.csv --set model=llama-3.1-70b --set "
                                 "serve.weights=fp8 --set serve.kv_cache=bf16");
  CHECK(kv.exit_code == 2);
  CHECK_THAT(kv.err, Catch::StartsWith((dir / "long.csv").string() + ":3:1: error:"));
  CHECK_THAT(kv.err,
             Catch::Contains("one sequence of request 2 of the trace (its longest) needs 100200 tokens "
                             "of KV cache, more than an instance's whole cache"));
}

TEST_CASE("a recorded trajectory past the window is refused at the line of the turn that passes it") {
  const fs::path dir = scratch_dir("context-replay");
  const std::string within = R"({"turns": [{"prompt_tokens": 500, "output_tokens": 100}]})";
  // 1,000 + 20,000 + 20,000 passes qwen3-8b's 40,960 tokens at the third turn, the file's line 2.
  std::ofstream(dir / "trajectories.jsonl")
      << "\n"
      << R"({"turns": [{"prompt_tokens": 1000, "output_tokens": 20000, "tool_latency_s": 1},)"
      << R"( {"prompt_tokens": 10, "output_tokens": 10}, {"prompt_tokens": 20000, "output_tokens": 10}]})"
      << "\n"
      << within << "\n";
  // The same trajectory as ledger calls, its passing turn on line 4.
  std::ofstream(dir / "ledger.jsonl")
      << R"({"trajectory": 0, "turn": 0, "prompt_tokens": 1000, "output_tokens": 20000, "submit_s": 0, "finish_s": 9})"
      << "\n"
      << R"({"trajectory": 1, "turn": 0, "prompt_tokens": 500, "output_tokens": 100, "submit_s": 0, "finish_s": 1})"
      << "\n"
      << R"({"trajectory": 0, "turn": 1, "prompt_tokens": 10, "output_tokens": 10, "submit_s": 10, "finish_s": 11})"
      << "\n"
      << R"({"trajectory": 0, "turn": 2, "prompt_tokens": 20000, "output_tokens": 10, "submit_s": 12, "finish_s": 13})"
      << "\n";
  // Quickstart replaying `file` instead of drawing its prompts and outputs.
  const auto scenario = [&](const std::string& file) {
    std::ifstream in(std::string(RLSIM_TEST_SOURCE_DIR) + "/" + kRl);
    std::string text;
    for (std::string line; std::getline(in, line);) {
      if (line.find("prompt_tokens:") != std::string::npos ||
          line.find("output_tokens:") != std::string::npos)
        continue;
      text += line + "\n";
      if (line == "workload:") text += "  trajectories: " + file + "\n";
    }
    const fs::path path = dir / ("rl-" + file + ".yaml");
    std::ofstream(path) << text;
    return "'" + path.string() + "'";
  };
  for (const auto& [file, line] :
       {std::pair<std::string, int>{"trajectories.jsonl", 2}, {"ledger.jsonl", 4}}) {
    const CliResult r = validate(scenario(file), "");
    INFO(r.err);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::StartsWith((dir / file).string() + ":" + std::to_string(line) + ":1: error:"));
    CHECK_THAT(r.err, Catch::Contains("recorded trajectory 1 (of 2) reaches 41030 tokens of context at this "
                                      "turn, past rollout.max_model_len (40960 tokens;") &&
                          Catch::Contains("or raise rollout.max_model_len (up to 131072)"));
  }
  CHECK(validate(scenario("trajectories.jsonl"), "--set rollout.max_model_len=65536").exit_code == 0);
}

TEST_CASE(
    "an RL context limit past rollout.max_model_len is refused, raising max_model_len within YaRN fits") {
  const CliResult r = validate(kRl, "--set workload.max_context_tokens=50000");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err,
             Catch::StartsWith("--set workload.max_context_tokens=50000:") &&
                 Catch::Contains("passes rollout.max_model_len (40960 tokens; qwen3-8b's context window") &&
                 Catch::Contains("expected at most 40960, or raise rollout.max_model_len (up to 131072)"));
  const CliResult raised =
      validate(kRl, "--set workload.max_context_tokens=50000 --set rollout.max_model_len=65536");
  CHECK(raised.exit_code == 0);
  // validate says the length each instance takes.
  CHECK_THAT(raised.out,
             Catch::Contains("    max_model_len: 65536 tokens per sequence (qwen3-8b's context window is "
                             "40960 tokens"));
}

TEST_CASE("an RL first call past the window, a prompt that fills max_context_tokens, or no cap is refused") {
  // Quickstart's prompts reach 1024 tokens: outputs capped at 39936 fill qwen3-8b's 40960 exactly.
  const CliResult full =
      validate(kRl, "--set 'workload.output_tokens={lognormal: {mean: 1500, sigma: 0.8}, max: 39937}'");
  CHECK(full.exit_code == 2);
  CHECK_THAT(full.err,
             Catch::Contains("the largest first call (1024 tokens of prompt + 39937 tokens of output) "
                             "passes rollout.max_model_len (40960 tokens;") &&
                 Catch::Contains("or raise rollout.max_model_len (up to 131072)"));
  CHECK(validate(kRl, "--set 'workload.output_tokens={lognormal: {mean: 1500, sigma: 0.8}, max: 39936}'")
            .exit_code == 0);
  const CliResult limited = validate(kRl, "--set workload.max_context_tokens=1000");
  CHECK(limited.exit_code == 2);
  CHECK_THAT(limited.err,
             Catch::Contains("the largest first prompt (1024 tokens) leaves no room for an output "
                             "within workload.max_context_tokens (1000 tokens)"));
  const CliResult uncapped =
      validate(kRl, "--set 'workload.prompt_tokens={normal: {mean: 600, stddev: 100}}'");
  CHECK(uncapped.exit_code == 2);
  CHECK_THAT(uncapped.err, Catch::Contains("a normal without a cap could draw a first call past"));
}

TEST_CASE("an AFD context and a costed iteration past the window are refused") {
  const CliResult afd = validate("scenarios/afd-step3.yaml", "--set afd.context=65536");
  CHECK(afd.exit_code == 2);
  CHECK_THAT(afd.err, Catch::StartsWith("--set afd.context=65536:") &&
                          Catch::Contains("step3's context window is 65536 tokens"));
  CHECK(validate("scenarios/afd-step3.yaml", "--set afd.context=8192").exit_code == 0);
  const CliResult prefill = run_rlsim(
      "cost prefill --model llama-3-70b --hardware H100 --tp 8 --prompt 8000 "
      "--context 500");
  CHECK(prefill.exit_code == 2);
  CHECK_THAT(prefill.err,
             Catch::StartsWith("--context:") &&
                 Catch::Contains("--context + --prompt (8500 tokens) passes what any engine serves of "
                                 "llama-3-70b"));
  CHECK(run_rlsim("cost prefill --model llama-3.1-70b --hardware H100 --tp 8 --prompt 8000 --context 500")
            .exit_code == 0);
  CHECK(run_rlsim("cost decode --model phi-2 --hardware H100 --tp 1 --context 2048").exit_code == 2);
  CHECK(run_rlsim("cost decode --model phi-2 --hardware H100 --tp 1 --context 2047").exit_code == 0);
}

TEST_CASE("rlsim list models shows each window and its documented extension") {
  const CliResult r = run_rlsim("list models");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("context") && Catch::Contains("40960-131072") &&
                        Catch::Contains("llama-3.1-70b") && Catch::Contains("rope scaling"));
}

TEST_CASE("a catalog model without its context window is an error at the model") {
  const fs::path dir = scratch_dir("context-catalog");
  std::ofstream(dir / "models.yaml") << "models:\n  - name: tiny\n    source: test\n    layers: 2\n    "
                                        "hidden_size: 64\n    vocab_size: 100\n"
                                        "    attention: {kind: mha, q_heads: 2, kv_heads: 2, head_dim: 32}\n "
                                        "   ffn: {intermediate_size: 128}\n";
  std::ifstream in(std::string(RLSIM_TEST_SOURCE_DIR) + "/" + kServe);
  std::string scenario((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::ofstream(dir / "serve.yaml") << "catalog: [models.yaml]\n" << scenario;
  const CliResult r = run_rlsim("validate '" + (dir / "serve.yaml").string() + "'");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("models.yaml:2:") && Catch::Contains("context_window_tokens"));
}
