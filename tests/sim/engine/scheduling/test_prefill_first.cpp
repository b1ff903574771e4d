// The prefill_first replica scheduler on hand-made replica states: admission up to max_batch while
// KV fits, prefix reuse, a call larger than the cache run alone, decode stretches up to the first
// completion or the KV limit, and newest-first preemption (recompute or swap) when KV runs out.
#include <catch2/catch.hpp>

#include "sim/engine/scheduling/prefill_first.h"
#include "tests/sim/engine/scheduling/hand_made_calls.h"

using namespace rlsim;

namespace {

using test::Calls;

std::unique_ptr<ReplicaScheduler> prefill_first(int max_batch, double kv_capacity, bool swap = false) {
  return make_replica_scheduler(kPrefillFirstScheduler, std::nullopt,
                                SchedulerLimits{max_batch, kv_capacity, swap});
}

/// Marks the running batch prefilled, as the instance does after running the plan.
void prefilled(ReplicaState& replica) {
  for (auto& s : replica.running) s.needs_prefill = false;
}

}  // namespace

TEST_CASE("prefill_first is registered by name") {
  CHECK(ReplicaSchedulerRegistry::instance().find(kPrefillFirstScheduler) != nullptr);
}

TEST_CASE("prefill_first admits up to max_batch and prefills before decoding") {
  Calls calls;
  ReplicaState replica;
  for (int t = 0; t < 3; ++t) replica.waiting.push_back(Sequence::arriving(calls.add(t, 0.0, 100.0, 50.0)));
  auto scheduler = prefill_first(2, 1e6);
  const IterationPlan plan = scheduler->schedule(replica);
  REQUIRE(plan.prefill.size() == 2);
  CHECK(plan.decode_iterations == 0);
  CHECK(replica.running.size() == 2);
  CHECK(replica.waiting.size() == 1);
  CHECK(plan.prefill[0].sequence == 0);
  CHECK(plan.prefill[1].sequence == 1);
  CHECK(plan.prefill[0].tokens == 100.0);
  CHECK(plan.prefill[0].context_tokens == 0.0);
  CHECK(replica.running[0].kv_tokens == 100.0);
  CHECK_FALSE(plan.idle());
}

TEST_CASE("prefill_first admits only while KV fits, keeping one block per sequence") {
  Calls calls;
  ReplicaState replica;
  replica.waiting.push_back(Sequence::arriving(calls.add(0, 0.0, 1000.0, 50.0)));
  replica.waiting.push_back(Sequence::arriving(calls.add(1, 0.0, 1000.0, 50.0)));
  // The first needs 1000 + 16 slots; the second 1000 + 2 × 16 beside the first's 1000: 2031 slots
  // do not hold both.
  auto scheduler = prefill_first(8, 2031.0);
  const IterationPlan plan = scheduler->schedule(replica);
  CHECK(plan.prefill.size() == 1);
  CHECK(replica.waiting.size() == 1);
  CHECK(replica.stats.overcommitted_calls == 0);
}

TEST_CASE("prefill_first runs a call larger than the whole KV alone") {
  Calls calls;
  ReplicaState replica;
  replica.waiting.push_back(Sequence::arriving(calls.add(0, 0.0, 5000.0, 50.0)));
  auto scheduler = prefill_first(8, 1000.0);
  CHECK(scheduler->schedule(replica).prefill.size() == 1);
  CHECK(replica.stats.overcommitted_calls == 1);
}

TEST_CASE("prefill_first reuses the trajectory's cached prefix") {
  Calls calls;
  ReplicaState replica;
  replica.prefix_cache.insert(4, 900.0);  // the previous turn: 900 tokens of KV
  LlmRequest* next_turn = calls.add(4, 900.0, 100.0, 50.0);
  replica.waiting.push_back(Sequence::arriving(next_turn));
  auto scheduler = prefill_first(8, 1e6);
  const IterationPlan plan = scheduler->schedule(replica);
  REQUIRE(plan.prefill.size() == 1);
  CHECK(next_turn->prefilled_tokens == 100.0);
  CHECK(plan.prefill[0].tokens == 100.0);
  CHECK(plan.prefill[0].context_tokens == 900.0);
  CHECK(replica.stats.prefix_hits == 1);
  CHECK(replica.stats.prefix_tokens_saved == 900.0);
  CHECK_FALSE(replica.prefix_cache.contains(4));  // its KV is the running sequence's now
}

TEST_CASE("prefill_first serves a shared system prompt from the cache and leaves it there") {
  Calls calls;
  ReplicaState replica;
  replica.prefix_cache.insert(shared_prefix_key(2), 100.0);  // system prompt 2, cached by an earlier call
  LlmRequest* hit = calls.add(7, 0.0, 547.0, 10.0);
  hit->shared_prefix_tokens = 100.0;
  hit->prefix_group = 2;
  LlmRequest* other = calls.add(8, 0.0, 547.0, 10.0);  // another system prompt: not cached
  other->shared_prefix_tokens = 100.0;
  other->prefix_group = 3;
  replica.waiting.push_back(Sequence::arriving(hit));
  replica.waiting.push_back(Sequence::arriving(other));
  const IterationPlan plan = prefill_first(8, 1e6)->schedule(replica);
  REQUIRE(plan.prefill.size() == 2);
  CHECK(hit->prefilled_tokens == 447.0);
  CHECK(plan.prefill[0].tokens == 447.0);
  CHECK(plan.prefill[0].context_tokens == 100.0);  // attends to the cached prompt
  CHECK(other->prefilled_tokens == 547.0);
  CHECK(replica.stats.prefix_hits == 1);
  CHECK(replica.stats.prefix_tokens_saved == 100.0);
  CHECK(replica.prefix_cache.contains(shared_prefix_key(2)));  // still there for the next call
}

TEST_CASE("prefill_first keeps a cached shared start once: its readers hold only their own KV") {
  // A 2,600-slot cache with a 1,000-token system prompt cached. Three 1,100-token calls that start
  // with it need 100 slots each (and a block): all fit beside the prompt, which stays, read by all.
  // Counted in every call (3,300 slots) they would not, and admitting them would evict the prompt.
  Calls calls;
  ReplicaState replica;
  replica.keeps_prefixes = true;
  replica.prefix_cache.insert(shared_prefix_key(2), 1000.0);
  for (int t = 0; t < 3; ++t) {
    LlmRequest* r = calls.add(t, 0.0, 1100.0, 10.0);
    r->shared_prefix_tokens = 1000.0;
    r->prefix_group = 2;
    replica.waiting.push_back(Sequence::arriving(r));
  }
  const IterationPlan plan = prefill_first(8, 2600.0)->schedule(replica);
  REQUIRE(plan.prefill.size() == 3);
  for (const PrefillWork& w : plan.prefill) {
    CHECK(w.tokens == 100.0);
    CHECK(w.context_tokens == 1000.0);  // each attends to the prompt
  }
  CHECK(replica.kv_used() == 300.0);
  CHECK(replica.kv_in_use() == 1300.0);       // the prompt once
  CHECK(replica.context_tokens() == 3300.0);  // but read by each
  CHECK(replica.prefix_cache.pinned(shared_prefix_key(2)));
  // Preempted to be recomputed: each call's KV is its whole prompt again, and none reads the entry.
  replica.requeue_running(false);
  CHECK_FALSE(replica.prefix_cache.pinned(shared_prefix_key(2)));
  for (const Sequence& s : replica.waiting) {
    CHECK(s.kv_tokens == 1100.0);
    CHECK(s.shared_tokens == 0.0);
  }
  // Admitted again, each recomputes only what follows the start, which is still cached.
  const IterationPlan again = prefill_first(8, 2600.0)->schedule(replica);
  REQUIRE(again.prefill.size() == 3);
  for (const PrefillWork& w : again.prefill) {
    CHECK(w.tokens == 100.0);
    CHECK(w.context_tokens == 1000.0);
  }
  CHECK(replica.kv_in_use() == 1300.0);
}

TEST_CASE("a sequence that prefilled a shared start hands it to the cache and reads it from there") {
  Calls calls;
  ReplicaState replica;
  replica.keeps_prefixes = true;
  LlmRequest* r = calls.add(0, 0.0, 1100.0, 10.0);
  r->shared_prefix_tokens = 1000.0;
  r->prefix_group = 5;
  Sequence s = Sequence::arriving(r);
  s.kv_tokens = 1100.0;
  replica.running.push_back(s);
  replica.prefilled({0}, 1.0, 0);
  const Sequence& done = replica.running[0];
  CHECK(replica.prefix_cache.peek(shared_prefix_key(5)) == 1000.0);
  CHECK(replica.prefix_cache.pinned(shared_prefix_key(5)));
  CHECK(done.kv_tokens == 101.0);  // its own 100 tokens and the first output token
  CHECK(done.shared_tokens == 1000.0);
  CHECK(done.tokens_in_context() == 1101.0);
  CHECK(replica.kv_in_use() == 1101.0);
  replica.release_shared_start(replica.running[0]);
  CHECK_FALSE(replica.prefix_cache.pinned(shared_prefix_key(5)));
  CHECK(replica.running[0].kv_tokens == 1101.0);
  // Without the deployment's prefix cache nothing is handed over.
  LlmRequest* again = calls.add(1, 0.0, 1100.0, 10.0);
  again->shared_prefix_tokens = 1000.0;
  again->prefix_group = 5;
  ReplicaState uncached;
  uncached.running.push_back(Sequence::arriving(again));
  uncached.running[0].kv_tokens = 1100.0;
  uncached.prefilled({0}, 1.0, 0);
  CHECK(uncached.running[0].shared_tokens == 0.0);
  CHECK(uncached.kv_used() == 1101.0);
}

TEST_CASE("prefill_first decodes up to the first completion") {
  Calls calls;
  ReplicaState replica;
  replica.waiting.push_back(Sequence::arriving(calls.add(0, 0.0, 100.0, 30.0)));
  replica.waiting.push_back(Sequence::arriving(calls.add(1, 0.0, 100.0, 20.0)));
  auto scheduler = prefill_first(8, 1e6);
  scheduler->schedule(replica);
  prefilled(replica);
  const IterationPlan plan = scheduler->schedule(replica);
  CHECK(plan.prefill.empty());
  CHECK(plan.decode_iterations == 20);
  CHECK(plan.decode == std::vector<size_t>{0, 1});
}

TEST_CASE("prefill_first stops a stretch at the KV limit") {
  Calls calls;
  ReplicaState replica;
  replica.waiting.push_back(Sequence::arriving(calls.add(0, 0.0, 100.0, 500.0)));
  auto scheduler = prefill_first(8, 150.0);  // 50 slots left for one sequence
  scheduler->schedule(replica);
  prefilled(replica);
  CHECK(scheduler->schedule(replica).decode_iterations == 50);
}

TEST_CASE("prefill_first preempts the newest sequence when KV runs out") {
  for (const bool swap : {false, true}) {
    Calls calls;
    ReplicaState replica;
    replica.waiting.push_back(Sequence::arriving(calls.add(0, 0.0, 100.0, 500.0)));
    replica.waiting.push_back(Sequence::arriving(calls.add(1, 0.0, 100.0, 500.0)));
    auto scheduler = prefill_first(8, 250.0, swap);  // both fit: 100 + 16, then 100 + 2 × 16 of 150
    REQUIRE(scheduler->schedule(replica).prefill.size() == 2);
    prefilled(replica);
    for (auto& s : replica.running) s.kv_tokens += 10.0;  // decoded: 30 slots left, 15 each, < one block
    const IterationPlan plan = scheduler->schedule(replica);
    CHECK(plan.preempted == 1);
    CHECK(plan.decode_iterations == 0);
    CHECK(plan.swap_out_tokens == (swap ? 110.0 : 0.0));
    REQUIRE(replica.running.size() == 1);
    CHECK(replica.running[0].request->trajectory == 0);
    REQUIRE(replica.waiting.size() == 1);
    CHECK(replica.waiting.front().request->trajectory == 1);
    CHECK(replica.waiting.front().needs_prefill);
    CHECK(replica.waiting.front().swapped == swap);
    CHECK(replica.waiting.front().request->preemptions == 1);
    CHECK(replica.stats.preemptions == 1);
  }
}

TEST_CASE("prefill_first has nothing to do on an empty replica") {
  ReplicaState replica;
  CHECK(prefill_first(8, 1e6)->schedule(replica).idle());
}
