// Tensor-parallel head splits: whole query heads per GPU, K/V heads split or replicated evenly,
// MLA's latent replicated; and the head grouping `rlsim cost attention-*` accepts.
#include <catch2/catch.hpp>

#include "models/tensor_parallel.h"
#include "tests/models/reference_specs.h"

using namespace rlsim;

TEST_CASE("tensor parallelism splits whole heads: query heads divide, K/V heads divide or replicate") {
  ModelArch gqa = test::llama2_7b();  // 32 query heads
  gqa.attention.kind = AttentionKind::gqa;
  gqa.attention.kv_heads = 8;
  CHECK(tensor_parallel_problem(gqa, 1).empty());
  CHECK(tensor_parallel_problem(gqa, 8).empty());
  CHECK(tensor_parallel_problem(gqa, 16).empty());  // 8 K/V heads replicated onto 16 GPUs
  CHECK_THAT(tensor_parallel_problem(gqa, 3), Catch::Contains("32 query heads do not divide over tp 3"));
  CHECK(tensor_parallel_degrees(gqa, 16) == std::vector<int>{1, 2, 4, 8, 16});

  ModelArch odd_kv = gqa;  // 24 query heads over 6 K/V heads: tp 4 divides the query heads only
  odd_kv.attention.q_heads = 24;
  odd_kv.attention.kv_heads = 6;
  CHECK_THAT(tensor_parallel_problem(odd_kv, 4), Catch::Contains("6 K/V heads neither divide over tp 4"));
  CHECK(tensor_parallel_problem(odd_kv, 12).empty());  // 6 K/V heads, each on 2 GPUs
  CHECK(tensor_parallel_degrees(odd_kv, 12) == std::vector<int>{1, 2, 3, 6, 12});

  const ModelArch mla = test::deepseek_v3();  // 128 query heads, one latent replicated
  CHECK(tensor_parallel_problem(mla, 16).empty());
  CHECK_FALSE(tensor_parallel_problem(mla, 3).empty());
}

TEST_CASE("a GPU's query heads must group evenly over its K/V heads") {
  CHECK(head_grouping_problem(32, 8).empty());
  CHECK(head_grouping_problem(32, 32).empty());
  CHECK(head_grouping_problem(16, 1).empty());
  CHECK_THAT(head_grouping_problem(8, 32), Catch::Contains("more K/V heads (32) than query heads (8)"));
  CHECK_THAT(head_grouping_problem(32, 3), Catch::Contains("do not group evenly over 3 K/V heads"));
}
