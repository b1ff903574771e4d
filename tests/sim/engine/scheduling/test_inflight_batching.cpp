// The inflight_batching replica scheduler (TensorRT-LLM's in-flight batching, chunked context off)
// on hand-made replica states: decodes take one token of the iteration's budget each, waiting
// prompts join the same forward pass only whole and in arrival order, a prompt that does not fit
// waits whole for the next iteration, a prompt longer than the budget runs as the only prompt of
// its iteration, a prompt the KV cache refuses holds the calls behind it, and a trajectory's cached
// prefix counts out of the budget as admission reuses it.
#include <catch2/catch.hpp>

#include "sim/engine/scheduling/chunked_prefill.h"
#include "sim/engine/scheduling/inflight_batching.h"
#include "sim/scenario/param_reader.h"
#include "tests/sim/engine/scheduling/hand_made_calls.h"

using namespace rlsim;
using test::Calls;
using test::run_prefills;
using test::waiting_prompts;

namespace {

std::unique_ptr<ReplicaScheduler> scheduler(const char* name, int64_t budget) {
  return test::with_token_budget(name, budget);
}

/// One call decoding, then two 5000-token prompts waiting: the NIM-style case of a budget that
/// holds one prompt and a half.
void one_decoding_two_waiting(Calls& calls, ReplicaState& replica, ReplicaScheduler& s) {
  replica.waiting.push_back(Sequence::arriving(calls.add(0, 0.0, 100.0, 50.0)));
  run_prefills(replica, s.schedule(replica));
  for (int t = 1; t <= 2; ++t) replica.waiting.push_back(Sequence::arriving(calls.add(t, 0.0, 5000.0, 50.0)));
}

}  // namespace

TEST_CASE("inflight_batching is registered by name with a token budget") {
  const auto* entry = ReplicaSchedulerRegistry::instance().find(kInflightBatchingScheduler);
  REQUIRE(entry != nullptr);
  CHECK(declares(entry->params, "token_budget"));
}

TEST_CASE("inflight_batching admits a prompt only whole: the next one waits for the next iteration") {
  Calls calls;
  ReplicaState replica;
  auto whole = scheduler(kInflightBatchingScheduler, 8192);
  one_decoding_two_waiting(calls, replica, *whole);
  const IterationPlan first = whole->schedule(replica);
  REQUIRE(first.decode.size() == 1);
  CHECK(first.decode_iterations == 1);
  REQUIRE(first.prefill.size() == 1);  // 1 + 5000 of 8192: the second 5000 does not fit
  CHECK(first.prefill[0].tokens == 5000.0);
  CHECK(first.prefill[0].completes_prompt);
  CHECK(replica.waiting.size() == 1);
  run_prefills(replica, first);
  const IterationPlan second = whole->schedule(replica);
  REQUIRE(second.prefill.size() == 1);
  CHECK(second.prefill[0].tokens == 5000.0);
  CHECK(second.prefill[0].completes_prompt);
  CHECK(second.decode.size() == 2);

  // chunked_prefill, same state and budget, starts the second prompt in the first iteration.
  Calls chunked_calls;
  ReplicaState chunked_replica;
  auto chunked = scheduler(kChunkedPrefillScheduler, 8192);
  one_decoding_two_waiting(chunked_calls, chunked_replica, *chunked);
  const IterationPlan split = chunked->schedule(chunked_replica);
  REQUIRE(split.prefill.size() == 2);
  CHECK(split.prefill[1].tokens == 8192.0 - 1.0 - 5000.0);
  CHECK_FALSE(split.prefill[1].completes_prompt);
}

TEST_CASE("inflight_batching runs a prompt longer than the budget whole, as its iteration's only prompt") {
  Calls calls;
  ReplicaState replica;
  waiting_prompts(calls, replica, {5000.0, 10.0});
  auto whole = scheduler(kInflightBatchingScheduler, 2048);
  const IterationPlan plan = whole->schedule(replica);
  REQUIRE(plan.prefill.size() == 1);
  CHECK(plan.prefill[0].tokens == 5000.0);
  CHECK(plan.prefill[0].completes_prompt);
  CHECK(replica.waiting.size() == 1);  // the small one behind it waits: nothing passes the budget twice
}

TEST_CASE("inflight_batching holds a prompt that fits the budget but not what the decodes leave of it") {
  Calls calls;
  ReplicaState replica;
  auto whole = scheduler(kInflightBatchingScheduler, 1000);
  replica.waiting.push_back(Sequence::arriving(calls.add(0, 0.0, 100.0, 50.0)));
  run_prefills(replica, whole->schedule(replica));  // call 0 decodes from now on: 999 tokens left
  SECTION("a prompt of the whole budget waits") {
    replica.waiting.push_back(Sequence::arriving(calls.add(1, 0.0, 1000.0, 10.0)));
    const IterationPlan plan = whole->schedule(replica);
    CHECK(plan.prefill.empty());
    CHECK(plan.decode.size() == 1);
    CHECK(replica.waiting.size() == 1);
  }
  SECTION("a prompt of what is left joins the decode") {
    replica.waiting.push_back(Sequence::arriving(calls.add(1, 0.0, 999.0, 10.0)));
    const IterationPlan plan = whole->schedule(replica);
    REQUIRE(plan.prefill.size() == 1);
    CHECK(plan.prefill[0].tokens == 999.0);
    CHECK(plan.decode.size() == 1);
  }
  SECTION("a prompt longer than the whole budget runs with the decode, alone") {
    replica.waiting.push_back(Sequence::arriving(calls.add(1, 0.0, 5000.0, 10.0)));
    replica.waiting.push_back(Sequence::arriving(calls.add(2, 0.0, 10.0, 10.0)));
    const IterationPlan plan = whole->schedule(replica);
    REQUIRE(plan.prefill.size() == 1);
    CHECK(plan.prefill[0].tokens == 5000.0);
    CHECK(plan.decode.size() == 1);
    CHECK(replica.waiting.size() == 1);
  }
}

TEST_CASE("inflight_batching keeps arrival order: a small prompt does not pass one that does not fit") {
  Calls calls;
  ReplicaState replica;
  waiting_prompts(calls, replica, {600.0, 900.0, 100.0});
  auto whole = scheduler(kInflightBatchingScheduler, 1000);
  const IterationPlan plan = whole->schedule(replica);
  REQUIRE(plan.prefill.size() == 1);
  CHECK(plan.prefill[0].tokens == 600.0);
  CHECK(replica.waiting.size() == 2);
}

TEST_CASE("inflight_batching keeps arrival order when the KV cache refuses a prompt that fits the budget") {
  Calls calls;
  ReplicaState replica;
  waiting_prompts(calls, replica, {1000.0, 1500.0, 100.0});
  SECTION("KV for the first only: the second and the small one behind it wait") {
    const IterationPlan plan =
        test::with_token_budget(kInflightBatchingScheduler, 8192, 64, 2000.0)->schedule(replica);
    REQUIRE(plan.prefill.size() == 1);
    CHECK(plan.prefill[0].tokens == 1000.0);
    CHECK(replica.waiting.size() == 2);
  }
  SECTION("KV for all three: all join") {
    const IterationPlan plan =
        test::with_token_budget(kInflightBatchingScheduler, 8192, 64, 4000.0)->schedule(replica);
    CHECK(plan.prefill.size() == 3);
    CHECK(replica.waiting.empty());
  }
}

TEST_CASE("inflight_batching counts only a call's uncached tokens against the budget") {
  Calls calls;
  ReplicaState replica;
  replica.waiting.push_back(Sequence::arriving(calls.add(0, 0.0, 600.0, 10.0)));
  replica.waiting.push_back(Sequence::arriving(calls.add(1, 4000.0, 300.0, 10.0)));  // a later turn
  SECTION("its prefix cached: 600 + 300 fit in 1000") {
    replica.prefix_cache.insert(1, 4000.0);
    const IterationPlan plan = scheduler(kInflightBatchingScheduler, 1000)->schedule(replica);
    REQUIRE(plan.prefill.size() == 2);
    CHECK(plan.prefill[1].tokens == 300.0);
    CHECK(plan.prefill[1].context_tokens == 4000.0);
  }
  SECTION("not cached: its 4300 tokens wait") {
    const IterationPlan plan = scheduler(kInflightBatchingScheduler, 1000)->schedule(replica);
    CHECK(plan.prefill.size() == 1);
    CHECK(replica.waiting.size() == 1);
  }
}
