// The chunked_prefill replica scheduler on hand-made replica states: decodes take one token of the
// iteration's budget each, prompts take the rest in chunks (continuing the prompt under way before
// admitting new calls), decodes and chunks are planned as one mixed iteration, and with nothing to
// prefill the batch decodes a stretch as prefill_first does.
#include <catch2/catch.hpp>

#include "sim/engine/scheduling/chunked_prefill.h"
#include "sim/scenario/param_reader.h"
#include "tests/sim/engine/scheduling/hand_made_calls.h"

using namespace rlsim;

namespace {

using test::Calls;

std::unique_ptr<ReplicaScheduler> chunked(int64_t budget) {
  return test::with_token_budget(kChunkedPrefillScheduler, budget);
}

}  // namespace

TEST_CASE("chunked_prefill is registered by name with a token budget") {
  const auto* entry = ReplicaSchedulerRegistry::instance().find(kChunkedPrefillScheduler);
  REQUIRE(entry != nullptr);
  CHECK(declares(entry->params, "token_budget"));
}

TEST_CASE("chunked_prefill splits a prompt longer than the budget over iterations") {
  Calls calls;
  ReplicaState replica;
  replica.waiting.push_back(Sequence::arriving(calls.add(0, 0.0, 5000.0, 10.0)));
  auto scheduler = chunked(2048);
  IterationPlan first = scheduler->schedule(replica);
  REQUIRE(first.prefill.size() == 1);
  CHECK(first.prefill[0].tokens == 2048.0);
  CHECK(first.prefill[0].context_tokens == 0.0);
  CHECK_FALSE(first.prefill[0].completes_prompt);
  test::run_prefills(replica, first);
  IterationPlan second = scheduler->schedule(replica);
  REQUIRE(second.prefill.size() == 1);
  CHECK(second.prefill[0].tokens == 2048.0);
  CHECK(second.prefill[0].context_tokens == 2048.0);  // attends to the chunk before it
  test::run_prefills(replica, second);
  IterationPlan third = scheduler->schedule(replica);
  REQUIRE(third.prefill.size() == 1);
  CHECK(third.prefill[0].tokens == 904.0);  // 5000 − 2 × 2048
  CHECK(third.prefill[0].context_tokens == 4096.0);
  CHECK(third.prefill[0].completes_prompt);
}

TEST_CASE("chunked_prefill mixes decodes and prompt chunks in one iteration within the budget") {
  Calls calls;
  ReplicaState replica;
  replica.waiting.push_back(Sequence::arriving(calls.add(0, 0.0, 100.0, 50.0)));
  auto scheduler = chunked(512);
  test::run_prefills(replica, scheduler->schedule(replica));  // the first call's prompt fits: it decodes next
  for (int t = 1; t <= 2; ++t) replica.waiting.push_back(Sequence::arriving(calls.add(t, 0.0, 400.0, 50.0)));
  const IterationPlan plan = scheduler->schedule(replica);
  // One decode token, then 400 tokens of the second prompt and the 111 left of the budget for the third.
  REQUIRE(plan.decode.size() == 1);
  CHECK(plan.decode_iterations == 1);
  REQUIRE(plan.prefill.size() == 2);
  CHECK(plan.prefill[0].tokens == 400.0);
  CHECK(plan.prefill[0].completes_prompt);
  CHECK(plan.prefill[1].tokens == 111.0);
  CHECK_FALSE(plan.prefill[1].completes_prompt);
  CHECK(replica.running.size() == 3);
}

TEST_CASE("chunked_prefill continues the prompt under way before admitting another") {
  Calls calls;
  ReplicaState replica;
  replica.waiting.push_back(Sequence::arriving(calls.add(0, 0.0, 1000.0, 5.0)));
  auto scheduler = chunked(600);
  test::run_prefills(replica, scheduler->schedule(replica));  // 600 of 1000
  replica.waiting.push_back(Sequence::arriving(calls.add(1, 0.0, 1000.0, 5.0)));
  const IterationPlan plan = scheduler->schedule(replica);
  REQUIRE(plan.prefill.size() == 2);
  CHECK(plan.prefill[0].sequence == 0);
  CHECK(plan.prefill[0].tokens == 400.0);
  CHECK(plan.prefill[1].sequence == 1);
  CHECK(plan.prefill[1].tokens == 200.0);
}

TEST_CASE("chunked_prefill decodes a stretch when nothing waits to be prefilled") {
  Calls calls;
  ReplicaState replica;
  replica.waiting.push_back(Sequence::arriving(calls.add(0, 0.0, 100.0, 30.0)));
  replica.waiting.push_back(Sequence::arriving(calls.add(1, 0.0, 100.0, 20.0)));
  auto scheduler = chunked(8192);
  IterationPlan prefill = scheduler->schedule(replica);
  CHECK(prefill.decode.empty());
  test::run_prefills(replica, prefill);
  for (auto& s : replica.running) s.remaining -= 1.0;  // the first token came with the prefill
  const IterationPlan plan = scheduler->schedule(replica);
  CHECK(plan.prefill.empty());
  CHECK(plan.decode.size() == 2);
  CHECK(plan.decode_iterations == 19);  // up to the first completion
}
