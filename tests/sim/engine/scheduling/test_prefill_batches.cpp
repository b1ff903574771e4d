// The prefill_batches replica scheduler (SGLang's batching with mixed chunks off) on hand-made
// replica states: waiting prompts prefill first, in batches of whole prompts within the token
// budget, with no decode in the batch; the running batch decodes only once no prompt waits; a
// prompt longer than the budget runs alone and whole. prefill_first, on the same state, prefills
// every waiting prompt at once.
#include <catch2/catch.hpp>

#include "sim/engine/scheduling/prefill_batches.h"
#include "sim/scenario/param_reader.h"
#include "tests/sim/engine/scheduling/hand_made_calls.h"

using namespace rlsim;
using test::Calls;
using test::run_prefills;
using test::waiting_prompts;

TEST_CASE("prefill_batches is registered by name with a token budget") {
  const auto* entry = ReplicaSchedulerRegistry::instance().find(kPrefillBatchesScheduler);
  REQUIRE(entry != nullptr);
  CHECK(declares(entry->params, "token_budget"));
}

TEST_CASE("prefill_batches prefills waiting prompts in budget-sized batches before any decode") {
  Calls calls;
  ReplicaState replica;
  auto s = test::with_token_budget(kPrefillBatchesScheduler, 8192);
  waiting_prompts(calls, replica, {4096, 4096, 4096, 4096, 4096});
  int prefill_batches = 0;
  for (IterationPlan plan = s->schedule(replica); !plan.prefill.empty(); plan = s->schedule(replica)) {
    ++prefill_batches;
    CHECK(plan.decode.empty());  // no decode rides in a prefill batch
    double tokens = 0.0;
    for (const PrefillWork& w : plan.prefill) {
      CHECK(w.completes_prompt);  // whole prompts
      tokens += w.tokens;
    }
    CHECK(tokens <= 8192.0);
    run_prefills(replica, plan);
  }
  CHECK(prefill_batches == 3);  // 2 + 2 + 1 prompts of 4096 tokens
  CHECK(replica.waiting.empty());
  const IterationPlan decode = s->schedule(replica);
  CHECK(decode.decode.size() == 5);  // all five decode once no prompt waits
  CHECK(decode.decode_iterations >= 1);
}

TEST_CASE("prefill_batches runs a prompt longer than the budget alone and whole") {
  Calls calls;
  ReplicaState replica;
  auto s = test::with_token_budget(kPrefillBatchesScheduler, 8192);
  waiting_prompts(calls, replica, {10000, 100});
  const IterationPlan first = s->schedule(replica);
  REQUIRE(first.prefill.size() == 1);
  CHECK(first.prefill[0].tokens == 10000.0);
  CHECK(first.prefill[0].completes_prompt);
  run_prefills(replica, first);
  const IterationPlan second = s->schedule(replica);
  REQUIRE(second.prefill.size() == 1);
  CHECK(second.prefill[0].tokens == 100.0);
}

TEST_CASE("prefill_first prefills every waiting prompt at once, without a budget") {
  Calls calls;
  ReplicaState replica;
  auto s = make_replica_scheduler(kPrefillFirstScheduler, std::nullopt, SchedulerLimits{64, 1e6, false});
  waiting_prompts(calls, replica, {4096, 4096, 4096, 4096, 4096});
  const IterationPlan plan = s->schedule(replica);
  CHECK(plan.prefill.size() == 5);
}
