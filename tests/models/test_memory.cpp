// The per-GPU memory model: inference weights, KV per token by attention design, the capacity
// that follows and its boundary; training model states under ZeRO, activations under
// recomputation (Korthikanti et al. 2022), and the fixes offered when a layout does not fit.
#include <catch2/catch.hpp>

#include "models/arch_params.h"
#include "models/memory/inference_memory.h"
#include "models/memory/training_memory.h"
#include "reference_specs.h"

using namespace rlsim;
using Catch::Matchers::WithinRel;

namespace {

HardwareSpec card_with(double memory_bytes) {
  HardwareSpec c = test::h800();
  c.mem_capacity_bytes = memory_bytes;
  return c;
}

}  // namespace

TEST_CASE("KV per GPU: GQA heads split over TP until one each, MLA's latent on every rank", "[memory]") {
  const ModelArch mha = test::llama2_7b();
  CHECK_THAT(kv_bytes_per_token_per_gpu(mha, Precision::bf16, 4),
             WithinRel(kv_bytes_per_token(mha, Precision::bf16) / 4, 1e-12));
  const ModelArch gqa = test::qwen3_235b();  // 4 KV heads: TP 8 keeps one head per GPU
  CHECK(kv_bytes_per_token_per_gpu(gqa, Precision::bf16, 8) ==
        kv_bytes_per_token_per_gpu(gqa, Precision::bf16, 4));
  CHECK_THAT(kv_bytes_per_token_per_gpu(gqa, Precision::bf16, 2),
             WithinRel(kv_bytes_per_token(gqa, Precision::bf16) / 2, 1e-12));
  const ModelArch mla = test::deepseek_v3();
  CHECK(kv_bytes_per_token_per_gpu(mla, Precision::fp8, 8) == kv_bytes_per_token(mla, Precision::fp8));
  const ModelArch mfa = test::step3();  // one shared K/V head
  CHECK(kv_bytes_per_token_per_gpu(mfa, Precision::fp8, 4) == kv_bytes_per_token(mfa, Precision::fp8));
}

TEST_CASE("inference: a replica just fits, and one byte less does not", "[memory]") {
  const ModelArch m = test::llama2_7b();
  const double weights = weight_bytes(m, Precision::bf16);
  const double kv = kv_bytes_per_token(m, Precision::bf16);
  // Memory such that weights + 10% reserve leave exactly 1000 tokens of KV on one GPU.
  const double capacity = (weights + 1000 * kv) / 0.9;
  const InferenceMemory fits =
      tp_instance_memory(m, card_with(capacity), 1, 1, Precision::bf16, Precision::bf16, 0.1);
  CHECK(fits.fits());
  CHECK_THAT(fits.kv_capacity_tokens, WithinRel(1000.0, 1e-9));
  CHECK(fits.sequences(300) == 3);
  CHECK_THAT(fits.used_fraction(1000), WithinRel(1.0, 1e-12));
  const double too_small = weights / 0.9 - 1.0;
  const InferenceMemory over =
      tp_instance_memory(m, card_with(too_small), 1, 1, Precision::bf16, Precision::bf16, 0.1);
  CHECK_FALSE(over.fits());
  CHECK(over.kv_capacity_tokens == 0.0);
  // Two GPUs split the weights and each token's KV: the group holds more than twice the tokens.
  const InferenceMemory two =
      tp_instance_memory(m, card_with(capacity), 2, 1, Precision::bf16, Precision::bf16, 0.1);
  CHECK(two.kv_capacity_tokens > 2 * fits.kv_capacity_tokens);
  CHECK(smallest_fitting_tp(m, card_with(too_small), 8, Precision::bf16, Precision::bf16, 0.1) == 2);
  CHECK(smallest_fitting_tp(m, card_with(1e9), 8, Precision::bf16, Precision::bf16, 0.1) == 0);
}

TEST_CASE("inference: pipeline stages split the layers and their KV, the heaviest stage counts", "[memory]") {
  const ModelArch m = test::llama2_7b();  // 32 identical layers, untied embedding and lm_head
  const double element = bytes_per_element(Precision::bf16);
  const double layer = layer_params(m, 0) * element;
  const double embedding = embedding_params(m) * element;
  const double last_extras = (lm_head_params(m) + m.hidden_size) * element;  // lm_head, final norm
  const double capacity = 80e9;
  const InferenceMemory one =
      tp_instance_memory(m, card_with(capacity), 1, 1, Precision::bf16, Precision::bf16, 0.1);
  const InferenceMemory two =
      tp_instance_memory(m, card_with(capacity), 1, 2, Precision::bf16, Precision::bf16, 0.1);
  // 16 layers a stage; the last also holds the lm_head and the final norm, and counts.
  CHECK_THAT(two.weight_bytes, WithinRel(16 * layer + last_extras, 1e-12));
  CHECK_THAT(two.kv_bytes_per_token, WithinRel(one.kv_bytes_per_token / 2.0, 1e-12));
  // Three stages of 32 layers: 11, 11 and 10; the first (11 layers and the embedding) counts.
  const InferenceMemory three =
      tp_instance_memory(m, card_with(capacity), 1, 3, Precision::bf16, Precision::bf16, 0.1);
  CHECK_THAT(three.kv_bytes_per_token, WithinRel(one.kv_bytes_per_token * 11.0 / 32.0, 1e-12));
  CHECK_THAT(three.weight_bytes, WithinRel(11 * layer + embedding, 1e-12));
  // The stages' weights add up to the model's.
  CHECK_THAT(32 * layer + embedding + last_extras, WithinRel(weight_bytes(m, Precision::bf16), 1e-12));
  // Stages combine with TP: both split the weights.
  const InferenceMemory both =
      tp_instance_memory(m, card_with(capacity), 2, 2, Precision::bf16, Precision::bf16, 0.1);
  CHECK_THAT(both.weight_bytes, WithinRel(two.weight_bytes / 2.0, 1e-12));
  // A card too small for the whole model holds half of it: the smallest pp that fits is 2.
  const double half = (two.weight_bytes + 1000 * two.kv_bytes_per_token) / 0.9;
  CHECK_FALSE(tp_instance_memory(m, card_with(half), 1, 1, Precision::bf16, Precision::bf16, 0.1).fits());
  CHECK(smallest_fitting_pp(m, card_with(half), 1, Precision::bf16, Precision::bf16, 0.1) == 2);
  CHECK(smallest_fitting_pp(m, card_with(1e8), 1, Precision::bf16, Precision::bf16, 0.1) == 0);
}

TEST_CASE("inference: an MoE model's heaviest stage is one of its expert layers", "[memory]") {
  const ModelArch m = test::deepseek_v3();  // 61 layers, the first 3 dense
  REQUIRE_FALSE(is_moe_layer(m, 0));
  REQUIRE(is_moe_layer(m, 60));
  const double element = bytes_per_element(Precision::fp8);
  // pp 61: one layer a stage; the heaviest is an expert layer (or the first, with the embedding).
  const double heaviest = std::max(layer_params(m, 60), layer_params(m, 0) + embedding_params(m)) * element;
  const InferenceMemory per_layer =
      tp_instance_memory(m, card_with(141e9), 8, 61, Precision::fp8, Precision::fp8, 0.1);
  CHECK_THAT(
      per_layer.weight_bytes,
      WithinRel(std::max(heaviest, (layer_params(m, 60) + lm_head_params(m) + m.hidden_size) * element) / 8.0,
                1e-12));
}

TEST_CASE("inference: an AFD attention GPU holds the attention weights and its sequences' whole KV",
          "[memory]") {
  const ModelArch m = test::step3();
  const InferenceMemory one = afd_attention_memory(m, test::h800(), 1, Precision::fp8, Precision::fp8, 0.1);
  const InferenceMemory sixteen =
      afd_attention_memory(m, test::h800(), 16, Precision::fp8, Precision::fp8, 0.1);
  CHECK(one.fits());
  CHECK_THAT(sixteen.kv_capacity_tokens, WithinRel(16 * one.kv_capacity_tokens, 1e-12));
  CHECK(one.weight_bytes < weight_bytes(m, Precision::fp8) / 10);  // attention only, not the experts
}

TEST_CASE("training: model states follow ZeRO's 2 + 2 + 12 bytes per parameter", "[memory]") {
  const double params = 1e9;
  TrainingLayout l;
  l.dp = 8;
  l.sharding = Sharding::none;
  CHECK_THAT(model_state_bytes_per_gpu(params, l), WithinRel(16e9, 1e-12));
  l.sharding = Sharding::zero1;
  CHECK_THAT(model_state_bytes_per_gpu(params, l), WithinRel(4e9 + 12e9 / 8, 1e-12));
  l.sharding = Sharding::zero2;
  CHECK_THAT(model_state_bytes_per_gpu(params, l), WithinRel(2e9 + 14e9 / 8, 1e-12));
  l.sharding = Sharding::zero3;
  CHECK_THAT(model_state_bytes_per_gpu(params, l), WithinRel(16e9 / 8, 1e-12));
  l.tp = 2;
  l.pp = 2;
  CHECK_THAT(model_state_bytes_per_gpu(params, l), WithinRel(16e9 / 32, 1e-12));
  l.offload_optimizer = true;
  CHECK_THAT(model_state_bytes_per_gpu(params, l), WithinRel(4e9 / 32, 1e-12));
}

TEST_CASE("training: activations per layer follow Korthikanti et al. Table 2", "[memory]") {
  const ModelArch m = test::llama2_7b();  // h 4096, a 32
  TrainingLayout l;
  l.sequence_tokens = 2048;
  l.micro_batch_sequences = 3;
  l.tp = 4;
  l.dropout = true;
  l.attention = AttentionBackend::unfused;
  l.recompute = Recompute::none;
  const double sbh = 2048.0 * 3 * 4096, scores = 32.0 * 2048 * 2048 * 3;  // a·s²·b
  // Sequence parallelism (the default): everything split over TP.
  CHECK_THAT(activation_bytes_per_layer(m, l), WithinRel((sbh * 34 + 5 * scores) / 4, 1e-12));
  l.recompute = Recompute::selective;
  CHECK_THAT(activation_bytes_per_layer(m, l), WithinRel(sbh * 34 / 4, 1e-12));
  l.recompute = Recompute::full;
  CHECK_THAT(activation_bytes_per_layer(m, l), WithinRel(sbh * 2 / 4, 1e-12));
  // Without it, the layer-norm and block inputs and the dropout masks stay whole on every rank.
  l.sequence_parallel = false;
  CHECK_THAT(activation_bytes_per_layer(m, l), WithinRel(sbh * 2, 1e-12));
  l.recompute = Recompute::none;
  CHECK_THAT(activation_bytes_per_layer(m, l), WithinRel(sbh * (10 + 24.0 / 4) + 5 * scores / 4, 1e-12));
  // No dropout: two one-byte masks fewer per s·b·h, and the scores keep only the softmax.
  l.dropout = false;
  CHECK_THAT(activation_bytes_per_layer(m, l), WithinRel(sbh * (8 + 24.0 / 4) + 2 * scores / 4, 1e-12));
  // Flash attention never stores the scores.
  l.attention = AttentionBackend::flash;
  CHECK_THAT(activation_bytes_per_layer(m, l), WithinRel(sbh * (8 + 24.0 / 4), 1e-12));
}

TEST_CASE("training: fp32 gradients, the logits and a rematerialised layer", "[memory]") {
  const ModelArch m = test::llama2_7b();
  TrainingLayout l;
  l.dp = 8;
  l.sharding = Sharding::zero1;
  l.gradient_bytes_per_param = 4.0;
  // Megatron-LM's distributed optimizer with bf16 weights and fp32 gradients: 6 + 12/d bytes.
  CHECK_THAT(model_state_bytes_per_gpu(1e9, l), WithinRel(6e9 + 12e9 / 8, 1e-12));
  l.reference_models = 0;
  l.sequence_tokens = 1000;
  l.micro_batch_sequences = 2;
  l.recompute = Recompute::full;
  const TrainingMemory mem = training_memory(m, test::h800(), l);
  TrainingLayout whole = l;
  whole.recompute = Recompute::none;
  const double logits = 6.0 * 2000 * m.vocab_size;  // bf16 logits and their fp32 copy
  CHECK_THAT(mem.activation_bytes, WithinRel(m.layers * activation_bytes_per_layer(m, l) +
                                                 activation_bytes_per_layer(m, whole) + logits,
                                             1e-12));
  CHECK(mem.reference_bytes == 0.0);
}

TEST_CASE("training: a micro-batch too large for the card gets the largest one that fits", "[memory]") {
  const ModelArch m = test::llama2_7b();
  TrainingLayout l;
  l.dp = 8;
  l.sharding = Sharding::zero3;
  l.recompute = Recompute::full;
  l.sequence_tokens = 8192;
  l.micro_batch_sequences = 64;
  REQUIRE_FALSE(training_memory(m, test::h800(), l).fits());
  const std::vector<std::string> fixes = training_memory_fixes(m, test::h800(), l, 1);
  REQUIRE(fixes.size() == 1);
  const int offered = std::stoi(fixes.front().substr(std::string("micro_batch_sequences: ").size()));
  l.micro_batch_sequences = offered;
  CHECK(training_memory(m, test::h800(), l).fits());
  l.micro_batch_sequences = offered * 2;
  CHECK_FALSE(training_memory(m, test::h800(), l).fits());
}

TEST_CASE("training: the reference model and PPO's critic count, and fixes are offered smallest first",
          "[memory]") {
  const ModelArch m = test::llama2_7b();
  TrainingLayout l;
  l.dp = 8;
  l.sharding = Sharding::none;
  const TrainingMemory grpo = training_memory(m, test::h800(), l);
  CHECK_THAT(grpo.reference_bytes, WithinRel(2 * total_params(m), 1e-12));
  CHECK_FALSE(grpo.fits());  // 16 + 2 bytes per parameter of a 6.7B model > 80 GB
  l.trained_models = 2;
  CHECK_THAT(training_memory(m, test::h800(), l).optimizer_bytes, WithinRel(2 * grpo.optimizer_bytes, 1e-12));
  l.trained_models = 1;
  const std::vector<std::string> fixes = training_memory_fixes(m, test::h800(), l, 8);
  REQUIRE_FALSE(fixes.empty());
  CHECK(fixes.front() == "sharding: zero1");
  l.sharding = Sharding::zero1;
  CHECK(training_memory(m, test::h800(), l).fits());
  CHECK(training_memory_fixes(m, test::h800(), l, 8).empty());
}
