// `rlsim cost prefill|decode` refuses what no engine could run, as scenarios do: weights that leave
// no room for KV (at --tp, with the smallest TP that fits) and a batch whose KV is more than the
// TP group's cache (at --batch, with the largest batch that fits); the KV precision and a
// prefill's prompt count.
#include <catch2/catch.hpp>
#include <string>

#include "tests/cli/cli_support.h"

namespace rlsim {
namespace {

/// Llama-3.1-70B: Llama-3-70B's layers with a 131072-token window, so the contexts below are
/// refused for memory, not for the window.
test::CliResult cost(const std::string& args) {
  return test::run_rlsim("cost " + args + " --model llama-3.1-70b --hardware H100");
}

TEST_CASE("rlsim cost refuses a TP group the weights do not fit", "[cli][cost][memory]") {
  const auto r = cost("decode --tp 1 --batch 1 --context 1000");
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK(r.err.find("--tp:") == 0);
  CHECK(r.err.find("131.4 GiB of bf16 weights") != std::string::npos);
  CHECK(r.err.find("smallest fix: --tp 2") != std::string::npos);
  CHECK(cost("decode --tp 2 --batch 1 --context 1000").exit_code == 0);
  // No TP within an 8-GPU server holds DeepSeek-V3 in bf16 on H100: fp8 does not either, so stages.
  const auto big =
      test::run_rlsim("cost decode --model deepseek-v3 --hardware H100 --tp 8 --batch 1 --context 100");
  CHECK(big.exit_code == 2);
  CHECK(big.err.find("smallest fix: --pp ") != std::string::npos);
}

TEST_CASE("rlsim cost refuses a batch whose KV the cache cannot hold", "[cli][cost][memory]") {
  // 70B at TP 2 on H100 holds 39,154 bf16 tokens of KV: one 32k sequence, not two.
  const auto two = cost("decode --tp 2 --batch 2 --context 32000");
  CHECK(two.exit_code == 2);
  CHECK(two.err.find("--batch:") == 0);
  CHECK(two.err.find("64002 tokens of KV cache") != std::string::npos);
  CHECK(two.err.find("--batch 1 or fewer") != std::string::npos);
  CHECK(two.err.find("--kv-cache fp8") != std::string::npos);
  CHECK(cost("decode --tp 2 --batch 1 --context 32000").exit_code == 0);
  // FP8 KV halves each token: two fit.
  CHECK(cost("decode --tp 2 --batch 2 --context 32000 --kv-cache fp8").exit_code == 0);
}

TEST_CASE("rlsim cost counts a prefill's prompt in its KV", "[cli][cost][memory]") {
  CHECK(cost("prefill --tp 2 --batch 2 --prompt 100 --context 19000").exit_code == 0);
  const auto r = cost("prefill --tp 2 --batch 2 --prompt 1000 --context 19000");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("(context + prompt)") != std::string::npos);
}

}  // namespace
}  // namespace rlsim
