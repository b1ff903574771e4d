// The nearest validation cases to a setup (tools/validation/case_nearness.h): a scenario's
// fingerprint read from its resolved YAML, and the tiers from same model on a shared card of the
// same kind down to only a shared card, the nearest non-empty tier chosen.
#include <catch2/catch.hpp>

#include "tools/validation/case_nearness.h"

using namespace rlsim;

TEST_CASE("a scenario's fingerprint is its kind, its model and the cards of all its pools") {
  const SetupFingerprint f = fingerprint_of_resolved(
      "name: x\nkind: afd\nmodel: step3\ncluster:\n  pools:\n    - {name: attention, gpu: H800}\n"
      "    - {name: ffn, gpu: H20}\n    - {name: spare, gpu: H800}\n");
  CHECK(f.kind == "afd");
  CHECK(f.model == "step3");
  CHECK(f.cards == std::set<std::string>{"H20", "H800"});
  OpCase op;
  op.hardware = "B200";
  const SetupFingerprint kernel = fingerprint_of_op(op);
  CHECK(kernel.kind == "kernel");
  CHECK(kernel.model.empty());
  CHECK(kernel.cards == std::set<std::string>{"B200"});
}

TEST_CASE("the nearest tier with any case is chosen, from same model, card and kind down to a card") {
  const SetupFingerprint setup{"serve", "llama-3-70b", {"H100"}};
  const SetupFingerprint same_all{"serve", "llama-3-70b", {"H100"}};
  const SetupFingerprint other_kind{"rl", "llama-3-70b", {"H100", "H20"}};
  const SetupFingerprint other_model{"serve", "llama-2-7b", {"H100"}};
  const SetupFingerprint model_elsewhere{"serve", "llama-3-70b", {"H200"}};
  const SetupFingerprint kernel{"kernel", "", {"H100"}};
  const SetupFingerprint unrelated{"serve", "qwen2.5-7b", {"A100"}};

  NearestCases found = nearest_cases(setup, {kernel, same_all, other_model, same_all, unrelated});
  CHECK(found.cases == std::vector<size_t>{1, 3});
  CHECK(found.criterion == "model llama-3-70b on H100, kind serve");

  found = nearest_cases(setup, {kernel, other_kind, unrelated});
  CHECK(found.cases == std::vector<size_t>{1});
  CHECK(found.criterion == "model llama-3-70b on H100");

  found = nearest_cases(setup, {kernel, other_model, model_elsewhere});
  CHECK(found.cases == std::vector<size_t>{1});  // a shared card and kind beats the model elsewhere
  CHECK_THAT(found.criterion, Catch::StartsWith("card H100, kind serve"));

  found = nearest_cases(setup, {kernel, model_elsewhere, unrelated});
  CHECK(found.cases == std::vector<size_t>{1});
  CHECK_THAT(found.criterion, Catch::StartsWith("model llama-3-70b (no case of it on H100)"));

  found = nearest_cases(setup, {unrelated, kernel});
  CHECK(found.cases == std::vector<size_t>{1});  // a kernel case on the card, the last resort
  CHECK_THAT(found.criterion, Catch::StartsWith("card H100 ("));

  found = nearest_cases(setup, {unrelated});
  CHECK(found.cases.empty());
  CHECK(found.criterion.empty());

  const SetupFingerprint two_cards{"rl", "qwen3-8b", {"H20", "H800"}};
  found = nearest_cases(two_cards, {SetupFingerprint{"kernel", "", {"H800"}}});
  CHECK_THAT(found.criterion, Catch::StartsWith("card one of H20, H800 ("));
}

TEST_CASE("a case of a model with the same layers is as near as one of the model itself") {
  // Llama-3-70B, 3.1-70B and 3.3-70B differ in their windows and training, not their layers.
  const std::set<std::string> kin = models_sharing_layers("llama-3-70b");
  CHECK(kin == std::set<std::string>{"llama-3-70b", "llama-3.1-70b", "llama-3.3-70b"});
  CHECK(models_sharing_layers("qwen3-8b") == std::set<std::string>{"qwen3-8b"});
  CHECK(models_sharing_layers("not-in-the-catalog") == std::set<std::string>{"not-in-the-catalog"});

  const SetupFingerprint setup{"serve", "llama-3-70b", {"H100"}};
  const SetupFingerprint newer{"serve", "llama-3.3-70b", {"H100"}};
  const SetupFingerprint other_model{"serve", "llama-2-70b", {"H100"}};
  NearestCases found = nearest_cases(setup, {other_model, newer}, kin);
  CHECK(found.cases == std::vector<size_t>{1});
  CHECK(found.criterion ==
        "model llama-3-70b or its layers (llama-3.1-70b, llama-3.3-70b) on H100, kind serve");
  // Without the kin, the newer release is only another model on the card.
  found = nearest_cases(setup, {other_model, newer});
  CHECK(found.cases == std::vector<size_t>{0, 1});
  CHECK_THAT(found.criterion, Catch::StartsWith("card H100, kind serve"));
}
