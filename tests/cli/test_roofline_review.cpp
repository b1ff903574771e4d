// `rlsim roofline` and `rlsim review` end to end: JSON shapes, hand-checkable values, errors.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_support.h"

using namespace rlsim::test;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinRel;
using nlohmann::json;

TEST_CASE("roofline --hardware prints a card's ridge as JSON") {
  CliResult r = run_rlsim("roofline --hardware H100 --precision bf16 --json");
  REQUIRE(r.exit_code == 0);
  const json j = json::parse(r.out);
  CHECK(j["hardware"] == "H100");
  CHECK(j["precision"] == "bf16");
  CHECK(j["peak_flops"].get<double>() == 989e12);
  CHECK(j["mem_bw_bytes_per_s"].get<double>() == 3.35e12);
  CHECK_THAT(j["ridge_flop_per_byte"].get<double>(), WithinRel(295.2, 0.001));
  CliResult text = run_rlsim("roofline --hardware H20");
  REQUIRE(text.exit_code == 0);
  CHECK_THAT(text.out, Contains("ridge") && Contains("fp8"));
}

TEST_CASE("roofline --model gives Step-3 per-token figures and module bounds") {
  CliResult r = run_rlsim("roofline --model step3 --hardware H20 --context 4096 --kv-precision fp8 --json");
  REQUIRE(r.exit_code == 0);
  const json j = json::parse(r.out);
  CHECK(j["model"] == "step3");
  CHECK(j["context"] == 4096);
  CHECK(j["kv_precision"] == "fp8");
  CHECK(j["per_token"]["kv_bytes"].get<double>() == 512.0 * 61 * 4096);
  CHECK(j["per_token"]["attention_flops"].get<double>() == 4.0 * 64 * 256 * 61 * 4096);
  CHECK(j["per_token"].contains("linear_flops"));
  CHECK(j["per_token"].contains("ffn_flops"));
  CHECK_THAT(j["attention_arithmetic_intensity"].get<double>(), WithinRel(128.0, 1e-9));
  REQUIRE(j["modules"].is_array());
  bool saw_attention = false;
  for (const json& m : j["modules"]) {
    for (const char* key : {"name", "flops", "bytes", "arithmetic_intensity", "bound"})
      CHECK(m.contains(key));
    CHECK((m["bound"] == "memory" || m["bound"] == "compute"));
    if (m["name"] == "attention") saw_attention = true;
  }
  CHECK(saw_attention);
}

TEST_CASE("MHA attention intensity through the CLI is 2/b") {
  const json bf16 = json::parse(run_rlsim("roofline --model llama-2-7b --json").out);
  CHECK_THAT(bf16["attention_arithmetic_intensity"].get<double>(), WithinRel(1.0, 1e-9));
  const json fp8 = json::parse(run_rlsim("roofline --model llama-2-7b --kv-precision fp8 --json").out);
  CHECK_THAT(fp8["attention_arithmetic_intensity"].get<double>(), WithinRel(2.0, 1e-9));
}

TEST_CASE("review --json has per-card costs, AFD limits and recommendations") {
  CliResult r = run_rlsim(
      "review --model step3 --hardware H800,H20,A800,Ascend910B --context 4096 --tpot-ms 50 --json");
  REQUIRE(r.exit_code == 0);
  const json j = json::parse(r.out);
  for (const char* card : {"H800", "H20", "A800", "Ascend910B"}) {
    INFO(card);
    const json& c = j["cards"][card];
    CHECK(c["ridge"].get<double>() > 0);
    CHECK(c["cost_per_1m_tokens"]["attention"].get<double>() > 0);
    CHECK(c["cost_per_1m_tokens"]["ffn"].get<double>() > 0);
    CHECK(c["afd_min_sparsity"].get<double>() > 0);
    CHECK(c["afd_batch"]["max_network"].get<double>() > 0);
    CHECK(c["afd_batch"]["min_ffn"].get<double>() > 0);
    CHECK(c["modules"].size() == 3);
  }
  CHECK(j["recommended"]["attention"].is_string());
  CHECK(j["recommended"]["ffn"].is_string());
  CHECK(j["verdict"].get<std::string>().size() > 100);
  CHECK(j["quantisation"].size() == 3);
  // A Blackwell card adds the fp4 (NVFP4) row; Hopper and older cards have no FP4 path.
  const json blackwell = json::parse(run_rlsim("review --model llama-3-70b --hardware B200,H100 --json").out);
  REQUIRE(blackwell["quantisation"].size() == 4);
  CHECK(blackwell["quantisation"][3]["precision"] == "fp4");
  CliResult text = run_rlsim("review --model step3 --hardware H800,H20 --tpot-ms 50");
  REQUIRE(text.exit_code == 0);
  CHECK_THAT(text.out, Contains("Verdict") && Contains("Recommended"));
}

TEST_CASE("Step-3 at 32K context reproduces the paper's $0.13 per 1M tokens") {
  const json j =
      json::parse(run_rlsim("review --model step3 --hardware H800,H20 --context 32768 --json").out);
  CHECK(j["recommended"]["attention"] == "H20");
  CHECK(j["recommended"]["ffn"] == "H800");
  CHECK_THAT(j["afd_cost_per_1m_tokens"]["total"].get<double>(), WithinRel(0.13, 0.03));
}

TEST_CASE("bad input gives exit code 2 and lists what is valid") {
  CliResult card = run_rlsim("roofline --hardware H1000 --json");
  CHECK(card.exit_code == 2);
  CHECK_THAT(card.err, Contains("unknown GPU 'H1000'") && Contains("H100"));
  CliResult precision = run_rlsim("roofline --hardware A100 --precision fp8");
  CHECK(precision.exit_code == 2);
  CHECK_THAT(precision.err, Contains("no fp8") && Contains("bf16"));
  CliResult kv = run_rlsim("roofline --model step3 --kv-precision fp6");
  CHECK(kv.exit_code == 2);
  CHECK_THAT(kv.err, Contains("valid values are:") && Contains("fp8"));
  CliResult model = run_rlsim("review --model step4 --hardware H800");
  CHECK(model.exit_code == 2);
  CHECK_THAT(model.err, Contains("unknown model 'step4'") && Contains("step3"));
  CliResult list = run_rlsim("review --model step3 --hardware H800,,H20");
  CHECK(list.exit_code == 2);
  CHECK(run_rlsim("roofline").exit_code == 2);
}

TEST_CASE("roofline and review help show an example") {
  CHECK_THAT(run_rlsim("roofline --help").out, Contains("Example"));
  CHECK_THAT(run_rlsim("review --help").out, Contains("Example"));
}

TEST_CASE("list shows model parameters and card ridges") {
  CliResult models = run_rlsim("list models");
  REQUIRE(models.exit_code == 0);
  CHECK_THAT(models.out, Contains("step3") && Contains("MFA") && Contains("671B") && Contains("active"));
  CliResult hardware = run_rlsim("list hardware");
  REQUIRE(hardware.exit_code == 0);
  CHECK_THAT(hardware.out, Contains("ridge") && Contains("295/591"));
  // Blackwell cards list their FP4 (NVFP4) peak; the others have none.
  CHECK_THAT(hardware.out, Contains("fp4") && Contains("9PFLOPS") && Contains("2PFLOPS"));
}
