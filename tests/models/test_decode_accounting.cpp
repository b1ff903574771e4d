// Step-3 decode accounting: attention arithmetic intensity by design and precision, per-token figures.
#include <catch2/catch.hpp>

#include "models/arch_params.h"
#include "models/review/decode_accounting.h"
#include "tests/models/reference_specs.h"

using namespace rlsim;
using Catch::Matchers::WithinRel;

TEST_CASE("MHA decode attention intensity is 2/b for b bytes per KV element", "[decode]") {
  const ModelArch m = test::llama2_7b();
  CHECK_THAT(decode_token_cost(m, 4096, Precision::bf16).attention_arithmetic_intensity(),
             WithinRel(2.0 / 2, 1e-12));
  CHECK_THAT(decode_token_cost(m, 4096, Precision::fp8).attention_arithmetic_intensity(),
             WithinRel(2.0 / 1, 1e-12));
  CHECK_THAT(decode_token_cost(m, 4096, Precision::int4).attention_arithmetic_intensity(),
             WithinRel(2.0 / 0.5, 1e-12));
}

TEST_CASE("GQA decode attention intensity is 2·(h_q/h_kv)/b, independent of context", "[decode]") {
  const ModelArch m = test::qwen3_235b();  // 64 q heads, 4 kv heads
  for (double context : {1.0, 4096.0, 65536.0}) {
    CHECK_THAT(decode_token_cost(m, context, Precision::bf16).attention_arithmetic_intensity(),
               WithinRel(2.0 * 16 / 2, 1e-12));
    CHECK_THAT(decode_token_cost(m, context, Precision::fp8).attention_arithmetic_intensity(),
               WithinRel(2.0 * 16 / 1, 1e-12));
  }
}

TEST_CASE("Step-3 paper's attention intensities: MFA 128, MLA 512 at 8-bit KV", "[decode]") {
  CHECK_THAT(decode_token_cost(test::step3(), 4096, Precision::fp8).attention_arithmetic_intensity(),
             WithinRel(128.0, 1e-12));
  CHECK_THAT(decode_token_cost(test::deepseek_v3(), 4096, Precision::fp8).attention_arithmetic_intensity(),
             WithinRel(512.0, 1e-12));
}

TEST_CASE("per-token figures follow the Step-3 formulas", "[decode]") {
  const ModelArch m = test::step3();
  const double t = 32768;
  const DecodeTokenCost c = decode_token_cost(m, t, Precision::fp8);
  CHECK(c.kv_bytes == 512.0 * 61 * t * 1.0);
  CHECK(c.attention_flops == 4.0 * 64 * 256 * 61 * t);
  CHECK(c.linear_flops == 2.0 * 61 * attention_params_per_layer(m));
  const double ffn = 5 * dense_ffn_params(m) + 56 * (3 * routed_expert_params(m) + shared_expert_params(m));
  CHECK_THAT(c.ffn_flops, WithinRel(2.0 * ffn, 1e-12));
  // Linear work does not grow with context; attention grows linearly.
  const DecodeTokenCost half = decode_token_cost(m, t / 2, Precision::fp8);
  CHECK(half.linear_flops == c.linear_flops);
  CHECK_THAT(half.attention_flops * 2, WithinRel(c.attention_flops, 1e-12));
}
