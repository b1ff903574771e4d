// Every built-in catalog model's parameter counts against the figures its publisher states, and
// every card's figures against what the cost models need.
#include <catch2/catch.hpp>

#include "models/arch_params.h"
#include "models/cost/roofline.h"
#include "sim/scenario/catalog.h"

using namespace rlsim;
using Catch::Matchers::WithinRel;

TEST_CASE("the catalog holds every model issue 3 names") {
  const Catalog catalog = load_builtin_catalog(RLSIM_TEST_SOURCE_DIR);
  for (const char* name :
       {"llama-2-7b", "llama-2-70b", "llama-3-8b", "llama-3-70b", "codellama-34b", "qwen-72b", "internlm-20b",
        "phi-2", "qwen2.5-7b", "qwen2.5-32b", "qwen2.5-72b", "qwen3-8b", "qwen3-32b", "qwen3-30b-a3b",
        "qwen3-235b-a22b", "deepseek-v3", "kimi-k2", "glm-4.5", "step3"}) {
    INFO(name);
    CHECK(catalog.models.count(name) == 1);
  }
}

TEST_CASE("every catalog model's total and active parameters are within 2% of published") {
  const Catalog catalog = load_builtin_catalog(RLSIM_TEST_SOURCE_DIR);
  REQUIRE(catalog.models.size() >= 19);
  for (const auto& [name, model] : catalog.models) {
    INFO(name << ": total " << total_params(model) << ", active as published "
              << active_params_as_published(model));
    REQUIRE(model.published_total_params > 0);
    REQUIRE(model.published_active_params > 0);
    CHECK_THAT(total_params(model), WithinRel(model.published_total_params, 0.02));
    CHECK_THAT(active_params_as_published(model), WithinRel(model.published_active_params, 0.02));
    CHECK(active_params(model) <= total_params(model));
    CHECK(model.source.find("http") != std::string::npos);
  }
}

TEST_CASE("Step-3 loads as the issue specifies it") {
  const Catalog catalog = load_builtin_catalog(RLSIM_TEST_SOURCE_DIR);
  const ModelArch& m = catalog.model("step3", {"test", 0, 0});
  CHECK(m.attention.kind == AttentionKind::mfa);
  CHECK(m.attention.q_lora_rank == 2048);
  CHECK(m.ffn.dense_layers == std::vector<int>{0, 1, 2, 3, 60});
  CHECK(m.published_active_embeddings == PublishedEmbeddings::output_only);
  CHECK(moe_layer_count(m) == 56);
}

TEST_CASE("catalog cards have a ridge, a NIC and a price") {
  const Catalog catalog = load_builtin_catalog(RLSIM_TEST_SOURCE_DIR);
  CHECK_THAT(*ridge_point(catalog.card("H100", {"test", 0, 0}), Precision::bf16), WithinRel(295.2, 0.001));
  for (const auto& [name, card] : catalog.hardware) {
    INFO(name);
    CHECK(effective_ridge_point(card, Precision::bf16) > 10);
    CHECK(card.nic_bw_bytes_per_s > 0);
    CHECK(card.usd_per_hour > 0);
  }
}
