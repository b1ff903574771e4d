// Parameter counts, weight bytes and KV sizes against values derived by hand from the configs.
#include <catch2/catch.hpp>

#include "models/arch_params.h"
#include "tests/models/reference_specs.h"

using namespace rlsim;
using Catch::Matchers::WithinRel;

TEST_CASE("dense MHA parameter count matches the hand count of Llama-2-7B", "[params]") {
  const ModelArch m = test::llama2_7b();
  const double h = 4096, attention = 4 * h * h, ffn = 3 * h * 11008, norms = 2 * h;
  const double expected = 32 * (attention + ffn + norms) + h + 2 * 32000 * h;
  CHECK(attention_params_per_layer(m) == attention);
  CHECK(dense_ffn_params(m) == ffn);
  CHECK(total_params(m) == expected);
  CHECK(active_params(m) == expected);  // dense: every parameter is active
  CHECK_THAT(total_params(m), WithinRel(6.74e9, 0.01));
  CHECK(weight_bytes(m, Precision::bf16) == 2 * expected);
  CHECK(weight_bytes(m, Precision::int4) == 0.5 * expected);
}

TEST_CASE("tied embeddings are counted once", "[params]") {
  ModelArch m = test::llama2_7b();
  const double untied = total_params(m);
  m.tied_embeddings = true;
  CHECK(total_params(m) == untied - 32000.0 * 4096);
}

TEST_CASE("MFA attention has a low-rank query and one shared K and V head (Step-3)", "[params]") {
  const ModelArch m = test::step3();
  const double h = 7168, r = 2048, q_out = 64 * 256;
  const double expected = h * r + r + r * q_out + 2 * h * 256 + q_out * h;
  CHECK(attention_params_per_layer(m) == expected);
  CHECK(kv_elements_per_token_per_layer(m) == 512);
  // Paper: 8-bit KV of 2.56e8 bytes per sequence at 8K context.
  CHECK_THAT(kv_bytes_per_token(m, Precision::fp8) * 8192, WithinRel(2.56e8, 0.005));
  CHECK(moe_layer_count(m) == 56);
  CHECK(dense_layer_count(m) == 5);
  CHECK_THAT(moe_sparsity(m), WithinRel(4.0 / 49.0, 1e-12));
  CHECK_THAT(total_params(m), WithinRel(316e9, 0.02));
  CHECK_THAT(active_params_as_published(m), WithinRel(38e9, 0.02));
}

TEST_CASE("MLA counts q_a/q_b, kv_a with the rope key, kv_b and o_proj (DeepSeek-V3)", "[params]") {
  const ModelArch m = test::deepseek_v3();
  const double h = 7168, heads = 128;
  const double q = h * 1536 + 1536 + 1536 * heads * (128 + 64);
  const double kv = h * (512 + 64) + 512 + 512 * heads * (128 + 128);
  const double o = heads * 128 * h;
  CHECK(attention_params_per_layer(m) == q + kv + o);
  CHECK(kv_elements_per_token_per_layer(m) == 576);  // d_c + rope, the absorbed cache
  CHECK(routed_expert_params(m) == 3 * h * 2048);
  CHECK(shared_expert_params(m) == 3 * h * 2048);
  CHECK(router_params(m) == h * 256);
  CHECK_THAT(total_params(m), WithinRel(671e9, 0.02));
  CHECK_THAT(active_params_as_published(m), WithinRel(37e9, 0.02));
}

TEST_CASE("active parameters drop the experts a token is not sent to", "[params]") {
  const ModelArch m = test::qwen3_235b();
  const double unused = 94.0 * (128 - 8) * routed_expert_params(m);
  CHECK_THAT(total_params(m) - active_params(m), WithinRel(unused, 1e-12));
  CHECK_THAT(total_params(m), WithinRel(235e9, 0.02));
  CHECK_THAT(active_params(m), WithinRel(22e9, 0.02));
}

TEST_CASE("published embedding conventions change only the embedding share", "[params]") {
  ModelArch m = test::qwen3_235b();
  const double embedding = embedding_params(m);
  m.published_active_embeddings = PublishedEmbeddings::both;
  const double both = active_params_as_published(m);
  CHECK(both == active_params(m));
  m.published_active_embeddings = PublishedEmbeddings::output_only;
  CHECK(active_params_as_published(m) == both - embedding);
  m.published_active_embeddings = PublishedEmbeddings::none;
  CHECK(active_params_as_published(m) == both - 2 * embedding);
}

TEST_CASE("KV elements per token per layer by attention kind", "[params]") {
  ModelArch m = test::llama2_7b();
  CHECK(kv_elements_per_token_per_layer(m) == 2 * 32 * 128);  // MHA
  CHECK(kv_bytes_per_token(m, Precision::bf16) == 32 * 2 * 32 * 128 * 2.0);
  m.attention = test::attention(AttentionKind::gqa, 32, 8, 128);
  CHECK(kv_elements_per_token_per_layer(m) == 2 * 8 * 128);
  m.attention = test::attention(AttentionKind::mqa, 32, 1, 128);
  CHECK(kv_elements_per_token_per_layer(m) == 2 * 128);
}
