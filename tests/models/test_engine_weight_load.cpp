// The engine's side of a weight update: a checkpoint's tensor count (against published counts) and
// the calls and seconds of per-tensor and bucketed updates.
#include <catch2/catch.hpp>

#include "models/arch_params.h"
#include "models/timing/engine_weight_load.h"
#include "tests/models/reference_specs.h"

using namespace rlsim;

TEST_CASE("a checkpoint's tensors: projections, norms, FFN matrices, embeddings") {
  // Llama-2-7b-hf's safetensors index: 32 layers of q, k, v, o, two norms, gate, up, down; the
  // embedding, the final norm and the untied lm_head: 291.
  CHECK(checkpoint_tensor_count(test::llama2_7b()) == 291);
  ModelArch tied = test::llama2_7b();
  tied.tied_embeddings = true;
  CHECK(checkpoint_tensor_count(tied) == 290);
  ModelArch biased = test::llama2_7b();
  biased.attention.qkv_bias = true;  // Qwen2's q, k and v biases
  CHECK(checkpoint_tensor_count(biased) == 291 + 32 * 3);
}

TEST_CASE("a MoE layer holds three tensors per routed expert, its router and one shared expert module") {
  // Qwen3-235B-A22B: 94 layers of 4 projections, 2 norms, 128 × 3 expert matrices and the router.
  CHECK(checkpoint_tensor_count(test::qwen3_235b()) == 94 * (4 + 2 + 128 * 3 + 1) + 3);
  // DeepSeek-V3: MLA with a low-rank query (7 tensors), 3 dense layers, 58 MoE layers of 256 experts,
  // a router and a shared expert. NeMo RL's checkpoint guide counts 45,395 tensors per vLLM rank: the
  // 58 routers' score-correction biases, which the catalog's architecture does not carry, are the rest.
  CHECK(checkpoint_tensor_count(test::deepseek_v3()) == 45395 - 58);
  // Moonlight-16B-A3B (its config.json): DeepSeek-V3's layout with 27 layers, the first dense, 64
  // experts and 2 shared (one module), MLA without a low-rank query: the 5,291 tensors whose
  // per-tensor update verl pull request 2418 measured at 175 s on 8 H20.
  ModelArch moonlight = test::deepseek_v3();
  moonlight.layers = 27;
  moonlight.attention.q_lora_rank = 0;
  moonlight.ffn.routed_experts = 64;
  moonlight.ffn.shared_experts = 2;
  moonlight.ffn.dense_layers = {0};
  CHECK(checkpoint_tensor_count(moonlight) == 5291);
}

TEST_CASE("an update's engine calls: none, one per tensor, or one per bucket the bytes fill") {
  const ModelArch model = test::llama2_7b();
  const double bytes = weight_bytes(model, Precision::bf16);
  EngineLoadSpec spec;
  CHECK(engine_load_calls(model, bytes, spec) == 0);
  CHECK(engine_load_s(model, bytes, spec) == 0.0);

  spec.mode = EngineLoadMode::per_tensor;
  spec.per_call_s = kPerTensorCallS;
  CHECK(engine_load_calls(model, bytes, spec) == 291);
  CHECK(engine_load_s(model, bytes, spec) == Approx(291 * 0.032));

  spec.mode = EngineLoadMode::bucketed;
  spec.bucket_bytes = 512.0 * 1024 * 1024;
  spec.per_call_s = kBucketCallS;
  const double buckets = std::ceil(bytes / spec.bucket_bytes);  // 13.5 GB in 512 MiB buckets: 26
  CHECK(buckets == 26);
  CHECK(engine_load_calls(model, bytes, spec) == 26);
  CHECK(engine_load_s(model, bytes, spec) == Approx(26 * 0.30));
  spec.bucket_bytes = bytes;  // one bucket holds the whole model
  CHECK(engine_load_calls(model, bytes, spec) == 1);
}
