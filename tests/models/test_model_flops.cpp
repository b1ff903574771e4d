// Model FLOPs by the PaLM / Megatron convention (models/timing/model_flops.h): against Megatron's
// closed form for a GPT model, MLA's per-head dims, tied embeddings counted once, and MFU.
#include <catch2/catch.hpp>

#include "models/timing/model_flops.h"
#include "reference_specs.h"

using namespace rlsim;
using Catch::Matchers::WithinRel;

namespace {

/// The 22B GPT model of Korthikanti et al. 2022 (arXiv 2205.05198), Table 3: 64 heads, hidden
/// 6144, 48 layers, a 4h GeLU MLP, vocabulary 51200.
ModelArch gpt_22b() {
  ModelArch m;
  m.name = "gpt-22b";
  m.layers = 48;
  m.hidden_size = 6144;
  m.vocab_size = 51200;
  m.attention = test::attention(AttentionKind::mha, 64, 64, 96);
  m.ffn.intermediate_size = 4 * 6144;
  m.ffn.gated = false;
  return m;
}

}  // namespace

TEST_CASE("training model FLOPs follow Megatron's 72·B·s·L·h²·(1 + s/6h + V/12hL)", "[flops]") {
  const ModelArch m = gpt_22b();
  for (double s : {2048.0, 8192.0}) {
    const double h = m.hidden_size, L = m.layers, v = m.vocab_size;
    // Korthikanti et al. 2022, Appendix A, Eq. 7, per sequence (B = 1) and divided by its tokens.
    const double megatron = 72.0 * s * L * h * h * (1.0 + s / (6.0 * h) + v / (12.0 * h * L)) / s;
    INFO("sequence " << s);
    // rlsim also counts the norms' weights as matmul parameters: a few parts in 10^4.
    CHECK_THAT(training_model_flops_per_token(m, s), WithinRel(megatron, 1e-3));
    CHECK_THAT(training_model_flops_per_token(m, s),
               WithinRel(3.0 * forward_model_flops_per_token(m, s), 1e-12));
  }
}

TEST_CASE("attention FLOPs grow with the span by the heads' q·k and v dims (MLA: 192 and 128)", "[flops]") {
  const ModelArch mla = test::deepseek_v3();
  const double per_token_of_span = 2.0 * 128 * (192 + 128) * mla.layers;
  CHECK_THAT(forward_model_flops_per_token(mla, 4096) - forward_model_flops_per_token(mla, 0),
             WithinRel(per_token_of_span * 4096, 1e-9));
  const ModelArch gqa = test::qwen3_235b();  // GQA: the score work follows the 64 query heads
  CHECK_THAT(forward_model_flops_per_token(gqa, 1000) - forward_model_flops_per_token(gqa, 0),
             WithinRel(2.0 * 64 * (128 + 128) * gqa.layers * 1000, 1e-9));
}

TEST_CASE("the embedding is a lookup: tied or untied, the lm_head's matmul counts once", "[flops]") {
  ModelArch untied = test::llama2_7b();
  ModelArch tied = untied;
  tied.tied_embeddings = true;
  CHECK_THAT(forward_model_flops_per_token(tied, 2048),
             WithinRel(forward_model_flops_per_token(untied, 2048), 1e-12));
}

TEST_CASE("MFU is model FLOPs over GPU-seconds at peak, 0 without time or peak", "[flops]") {
  CHECK_THAT(model_flops_utilization(500e12, 2.0, 4.0, 250e12), WithinRel(0.25, 1e-12));
  CHECK(model_flops_utilization(1e12, 0.0, 8.0, 989e12) == 0.0);
  CHECK(model_flops_utilization(1e12, 1.0, 8.0, 0.0) == 0.0);
}
