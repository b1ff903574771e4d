// Pipeline parallelism of an inference replica (models/timing/pipeline_parallel.h): the heaviest of
// pp micro-batches bounds a round, a prompt's chunk stays whole, and the stage-to-stage sends are
// pp − 1 hidden-state sends plus the tokens' return.
#include <catch2/catch.hpp>

#include "models/timing/pipeline_parallel.h"
#include "tests/models/reference_specs.h"

using namespace rlsim;
using Catch::Matchers::WithinRel;

TEST_CASE("pipeline: the heaviest micro-batch takes a pp-th of the decodes, rounded up") {
  const ForwardBatch decode{63, 900.0, {}};
  CHECK(heaviest_micro_batch(decode, 1).decode_sequences == 63);
  const ForwardBatch micro = heaviest_micro_batch(decode, 4);
  CHECK(micro.decode_sequences == 16);
  CHECK(micro.decode_mean_context == 900.0);
  // Fewer sequences than stages: one sequence a micro-batch, stages idle (the bubble).
  CHECK(heaviest_micro_batch(ForwardBatch{2, 10.0, {}}, 8).decode_sequences == 1);
}

TEST_CASE("pipeline: a micro-batch takes the largest prompt chunks, each whole") {
  const ForwardBatch mixed{5, 100.0, {{100, 0}, {4000, 0}, {300, 50}}};
  const ForwardBatch micro = heaviest_micro_batch(mixed, 2);
  CHECK(micro.decode_sequences == 3);
  REQUIRE(micro.chunks.size() == 2);
  CHECK(micro.chunks[0].tokens == 4000);
  CHECK(micro.chunks[1].tokens == 300);
  CHECK(micro.chunks[1].context_before == 50);
  // One long prompt cannot be pipelined: the micro-batch is the whole prompt.
  const ForwardBatch one{0, 0.0, {{8192, 0}}};
  CHECK(heaviest_micro_batch(one, 4).chunks.size() == 1);
  CHECK(heaviest_micro_batch(one, 4).tokens() == 8192);
}

TEST_CASE("pipeline: stage sends are pp − 1 hidden states and the tokens' way back") {
  const ModelArch m = test::llama2_7b();  // hidden 4096: 8 KiB a token in bf16
  CHECK(stage_activation_bytes_per_token(m) == 8192.0);
  const LinkSpec link{50e9, 5e-6};
  CHECK(pipeline_sends_seconds(m, 64, 1, link) == 0.0);
  const double hidden_send = 5e-6 + 64 * 8192.0 / 50e9;
  CHECK_THAT(pipeline_sends_seconds(m, 64, 2, link), WithinRel(hidden_send + 5e-6, 1e-12));
  CHECK_THAT(pipeline_sends_seconds(m, 64, 4, link), WithinRel(3 * hidden_send + 5e-6, 1e-12));
}

TEST_CASE("pipeline: stages work the share of micro-batches a batch fills") {
  CHECK(stage_busy_share(ForwardBatch{64, 100.0, {}}, 1) == 1.0);
  CHECK(stage_busy_share(ForwardBatch{64, 100.0, {}}, 4) == 1.0);
  CHECK(stage_busy_share(ForwardBatch{1, 100.0, {}}, 4) == 0.25);
  CHECK(stage_busy_share(ForwardBatch{2, 100.0, {{512, 0}}}, 4) == 0.75);
}
