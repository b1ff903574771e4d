// Per-op FLOPs and bytes of GEMMs, attention and FFN, and their TP/EP splits.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "models/arch_params.h"
#include "models/ops/layer_ops.h"
#include "models/ops/module_costs.h"
#include "tests/models/reference_specs.h"

using namespace rlsim;
using Catch::Matchers::WithinRel;

namespace {

// Returns a copy: callers pass temporaries.
Op find(const std::vector<Op>& ops, const std::string& name) {
  auto it = std::find_if(ops.begin(), ops.end(), [&](const Op& op) { return op.name == name; });
  REQUIRE(it != ops.end());
  return *it;
}

ForwardPass decode(int64_t batch, int64_t context, Precision weights = Precision::bf16, int tp = 1) {
  ForwardPass p;
  p.kind = PassKind::decode;
  p.sequences = batch;
  p.context_before = context;
  p.weights = weights;
  p.tp = tp;
  return p;
}

}  // namespace

TEST_CASE("a GEMM's FLOPs are 2mnk and its bytes A + B + C", "[ops]") {
  const Op op = make_gemm("g", 128, 4096, 1024, Precision::bf16);
  CHECK(op.flops == 2.0 * 128 * 4096 * 1024);
  CHECK(op.bytes == (128.0 * 1024 + 1024.0 * 4096 + 128.0 * 4096) * 2);
  const Op grouped = make_grouped_gemm("e", 8, 16, 512, 256, Precision::bf16);
  CHECK(grouped.flops == 8 * 2.0 * 16 * 512 * 256);
}

TEST_CASE("decode FFN intensity is about 2·tokens / bytes per weight", "[ops]") {
  const ModelArch m = test::llama2_7b();
  for (int64_t batch : {1, 16, 64}) {
    for (Precision w : {Precision::bf16, Precision::fp8}) {
      const Op up = find(layer_ops(m, 0, decode(batch, 100, w)), "ffn_up");
      const double expected = 2.0 * batch / bytes_per_element(w);
      CHECK_THAT(up.arithmetic_intensity(), WithinRel(expected, 0.05));
    }
  }
}

TEST_CASE("fp4 (NVFP4) weights take 4.5 bits each and multiply W4A4, int4 W4A16", "[ops]") {
  REQUIRE(parse_precision("fp4") == Precision::fp4);
  CHECK(bytes_per_element(Precision::fp4) == 0.5625);  // 4 bits and an 8-bit scale per 16
  const ModelArch m = test::llama2_7b();
  const Op fp4 = find(layer_ops(m, 0, decode(1, 100, Precision::fp4)), "ffn_up");
  const Op int4 = find(layer_ops(m, 0, decode(1, 100, Precision::int4)), "ffn_up");
  CHECK(fp4.compute == Precision::fp4);
  CHECK(int4.compute == Precision::bf16);
  // At batch 1 the weights are nearly all the bytes: 4096 x 2 x 11008 of them.
  CHECK_THAT(fp4.bytes, WithinRel(4096.0 * 2 * 11008 * 0.5625, 0.01));
  CHECK(fp4.bytes > int4.bytes * 1.1);
}

TEST_CASE("tensor parallelism splits heads and the FFN width", "[ops]") {
  const ModelArch m = test::llama2_7b();
  const auto one = layer_ops(m, 0, decode(8, 512, Precision::bf16, 1));
  const auto two = layer_ops(m, 0, decode(8, 512, Precision::bf16, 2));
  for (const char* name : {"q_proj", "kv_proj", "attn_core", "o_proj", "ffn_up", "ffn_down"}) {
    CHECK_THAT(find(two, name).flops * 2, WithinRel(find(one, name).flops, 1e-12));
  }
  // GQA with fewer KV heads than TP ranks replicates them.
  ModelArch mqa = m;
  mqa.attention = test::attention(AttentionKind::mqa, 32, 1, 128);
  const auto mqa_two = layer_ops(mqa, 0, decode(8, 512, Precision::bf16, 2));
  CHECK(find(mqa_two, "kv_proj").gemm.n == 2 * 128);
}

TEST_CASE("decode attention op intensity tracks the design: MHA ≈ 2/b, GQA ≈ 2·group/b", "[ops]") {
  const ModelArch mha = test::llama2_7b();
  const Op core = find(layer_ops(mha, 0, decode(4, 8191)), "attn_core");
  CHECK_THAT(core.arithmetic_intensity(), WithinRel(1.0, 0.01));  // bf16: 2/2
  const Op gqa = find(layer_ops(test::qwen3_235b(), 0, decode(4, 8191)), "attn_core");
  CHECK_THAT(gqa.arithmetic_intensity(), WithinRel(16.0, 0.01));
}

TEST_CASE("absorbed MLA decode reads the latent cache once", "[ops]") {
  const ModelArch m = test::deepseek_v3();
  const Op core = find(layer_ops(m, 5, decode(2, 4095, Precision::bf16)), "attn_core");
  const double cache = 2.0 * 4096 * 576 * 2;           // batch × kv_len × (d_c + rope) × bf16
  const double queries = 2.0 * 128 * (576 + 512) * 2;  // absorbed q in, latent-space output out
  CHECK(core.bytes == cache + queries);
  CHECK(core.attention.kv_heads == 1);
}

TEST_CASE("MoE decode reads only the experts that receive a token", "[ops]") {
  const ModelArch m = test::qwen3_235b();
  const Op up1 = find(layer_ops(m, 0, decode(1, 100, Precision::bf16)), "expert_up");
  // One token: k = 8 experts, each 2·1536×4096 of the up/gate weights.
  CHECK_THAT(up1.bytes, WithinRel(8.0 * 2 * 1536 * 4096 * 2, 0.01));
  const Op up_many = find(layer_ops(m, 0, decode(4096, 100, Precision::bf16)), "expert_up");
  // 4096 tokens reach nearly every expert: all 128 weight sets, plus the routed activations.
  const double weights = 128.0 * 2 * 1536 * 4096 * 2, activations = 4096.0 * 8 * (4096 + 2 * 1536) * 2;
  CHECK_THAT(up_many.bytes, WithinRel(weights + activations, 0.01));
  CHECK(up_many.flops == 2.0 * 4096 * 8 * 2 * 1536 * 4096);
  // Expert parallelism over 8 GPUs leaves each a 1/8 share of the assignments.
  ForwardPass ep = decode(4096, 100, Precision::bf16, 8);
  const Op up_ep = find(layer_ops(m, 0, ep), "expert_up");
  CHECK_THAT(up_ep.flops * 8, WithinRel(up_many.flops, 1e-12));
}

TEST_CASE("decode FLOPs of a whole pass are about 2 × active parameters at short context", "[ops]") {
  for (const ModelArch& m : {test::llama2_7b(), test::step3(), test::qwen3_235b()}) {
    ForwardPass p = decode(1, 1);
    double flops = 0.0;
    int layers = 0;
    for (const CountedOp& c : forward_ops(m, p)) {
      flops += c.count * c.op.flops;
      if (c.op.name == "norms") layers += c.count;
    }
    CHECK(layers == m.layers);
    CHECK_THAT(flops, WithinRel(2.0 * (active_params(m) - embedding_params(m)), 0.02));
  }
}

TEST_CASE("training logits cover every token, decode only the last", "[ops]") {
  const ModelArch m = test::llama2_7b();
  ForwardPass train;
  train.kind = PassKind::training;
  train.sequences = 2;
  train.new_tokens = 1024;
  const Op head = find(head_ops(m, train), "lm_head");
  CHECK(head.gemm.m == 2048);
  const Op decode_head = find(head_ops(m, decode(2, 10)), "lm_head");
  CHECK(decode_head.gemm.m == 2);
}

TEST_CASE("modules regroup every op of a decode pass without losing work", "[ops]") {
  const ModelArch m = test::deepseek_v3();
  ForwardPass p = decode(32, 4095, Precision::fp8);
  double flops = 0.0, bytes = 0.0;
  for (const CountedOp& c : forward_ops(m, p)) {
    flops += c.count * c.op.flops;
    bytes += c.count * c.op.bytes;
  }
  const auto modules = module_costs(m, p);
  double module_flops = 0.0, module_bytes = 0.0;
  for (const ModuleCost& mc : modules) {
    module_flops += mc.flops;
    module_bytes += mc.bytes;
  }
  CHECK_THAT(module_flops, WithinRel(flops, 1e-12));
  CHECK_THAT(module_bytes, WithinRel(bytes, 1e-12));
  REQUIRE(modules.size() == 10);
  CHECK(modules[2].name == "attention");
  // Absorbed MLA with fp8 KV: AI ≈ 2·128·(576 + 512)/576 ≈ 483, below H800's fp8 ridge of 591.
  CHECK(modules[2].bound_on(test::h800()) == Bound::memory);
  CHECK(modules[7].name == "routed_experts");
  CHECK(modules[7].compute == Precision::fp8);
}
