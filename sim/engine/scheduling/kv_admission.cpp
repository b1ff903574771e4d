// KV-block admission with prefix reuse, decode stretches to the next completion, newest-first
// preemption.
#include "sim/engine/scheduling/kv_admission.h"

#include <algorithm>
#include <cmath>

namespace rlsim {
namespace {

/// Decode iterations until the first running sequence finishes (at least 1).
long iterations_to_first_finish(const std::vector<Sequence>& running) {
  long iterations = static_cast<long>(std::ceil(running.front().remaining - 1e-9));
  for (const auto& s : running)
    iterations = std::min(iterations, static_cast<long>(std::ceil(s.remaining - 1e-9)));
  return iterations;
}

/// Of call `r`'s first tokens, how many its shared prompt cached on `replica` covers.
double cached_shared_start(const ReplicaState& replica, const LlmRequest& r) {
  if (r.prefix_group < 0) return 0.0;
  return std::min(replica.prefix_cache.peek(shared_prefix_key(r.prefix_group)), r.shared_prefix_tokens);
}

/// Of waiting call `r`'s first tokens, how many `replica`'s cache serves: its trajectory's cached
/// prefix `own_prefix` (of its context) or its shared prompt, whichever covers more.
double reused_tokens(const ReplicaState& replica, const LlmRequest& r, double own_prefix) {
  return std::max(std::min(own_prefix, r.context_tokens), cached_shared_start(replica, r));
}

/// The KV waiting call `s` has when admitted: its context and new tokens on a first admission,
/// all its KV again after a recompute preemption.
double kv_on_admission(const Sequence& s) {
  return s.kv_tokens == 0.0 ? s.request->context_tokens + s.request->new_tokens : s.kv_tokens;
}

/// Of that KV, the first tokens `replica`'s cache serves: on a first admission its trajectory's
/// cached prefix `own_prefix` or its shared prompt, whichever covers more; after a recompute
/// preemption its shared prompt if still cached (vLLM looks its blocks up whenever it admits).
double reused_on_admission(const ReplicaState& replica, const Sequence& s, double own_prefix) {
  return s.kv_tokens == 0.0 ? reused_tokens(replica, *s.request, own_prefix)
                            : cached_shared_start(replica, *s.request);
}

}  // namespace

std::optional<PrefillWork> admit_oldest(ReplicaState& replica, const SchedulerLimits& limits) {
  auto& waiting = replica.waiting;
  auto& running = replica.running;
  if (waiting.empty() || static_cast<int>(running.size()) >= limits.max_batch) return std::nullopt;
  Sequence s = waiting.front();
  LlmRequest& r = *s.request;
  // This trajectory's cached prefix, out of the cache while admission is tried (so it cannot be
  // evicted for its own sake); back in it if the call is not admitted.
  double own_prefix = 0.0, cached = 0.0;
  if (s.needs_prefill && !s.swapped) {
    // A shared prompt it reuses is left in the cache for the other calls that start with it.
    if (s.kv_tokens == 0.0) own_prefix = replica.prefix_cache.take(r.trajectory);
    cached = reused_on_admission(replica, s, own_prefix);
    s.kv_tokens = kv_on_admission(s);
    r.prefilled_tokens = s.kv_tokens - cached;
    // That shared start stays the cache's (pinned, so not evicted for this call's room).
    const double shared = cached_shared_start(replica, r);
    if (shared > 0.0 && shared == cached) replica.read_shared_start(s, shared);
  }
  // Room for the call and one KV block more for every running sequence and itself, as paged
  // KV caches allocate: admitting into the last free slots would only have the newest call
  // preempted again at once.
  const double need = s.kv_tokens + kKvBlockTokens * static_cast<double>(running.size() + 1);
  const double room = limits.kv_capacity_tokens - replica.kv_used();
  // Evict cached prefixes before refusing; a call bigger than everything runs alone.
  replica.prefix_cache.evict_until_free(need, room);
  if (need > room - replica.prefix_cache.cached_tokens()) {
    if (!running.empty()) {
      if (own_prefix > 0.0) replica.prefix_cache.insert(r.trajectory, own_prefix);
      replica.release_shared_start(s);
      return std::nullopt;
    }
    ++replica.stats.overcommitted_calls;
  }
  if (cached > 0.0) {
    ++replica.stats.prefix_hits;
    replica.stats.prefix_tokens_saved += cached;
  }
  waiting.pop_front();
  PrefillWork work;
  work.sequence = running.size();
  if (s.swapped) {
    work.restore = true;
    work.tokens = s.kv_tokens;
  } else {
    work.tokens = std::max(1.0, r.prefilled_tokens);
    work.context_tokens = std::max(0.0, s.tokens_in_context() - work.tokens);
  }
  s.prefill_left = work.restore ? 0.0 : work.tokens;
  s.swapped = false;
  running.push_back(s);
  return work;
}

double oldest_prompt_tokens(const ReplicaState& replica) {
  if (replica.waiting.empty() || replica.waiting.front().swapped) return 0.0;
  // As admit_oldest computes the prefill's tokens, the cached prefix left in the cache.
  const Sequence& s = replica.waiting.front();
  if (!s.needs_prefill) return std::max(1.0, s.request->prefilled_tokens);
  const double own_prefix = replica.prefix_cache.peek(s.request->trajectory);
  return std::max(1.0, kv_on_admission(s) - reused_on_admission(replica, s, own_prefix));
}

bool plan_decode_stretch(ReplicaState& replica, const SchedulerLimits& limits, IterationPlan& plan) {
  if (replica.running.empty()) return false;
  const double batch = static_cast<double>(replica.running.size());
  const double free = limits.kv_capacity_tokens - replica.kv_in_use();
  const long kv_limit = static_cast<long>(std::floor(free / batch));
  // Out of KV blocks: the newest sequence gives its KV up (recompute or swap).
  if (kv_limit < static_cast<long>(kKvBlockTokens) && preempt_newest(replica, limits, plan)) return true;
  long iterations = iterations_to_first_finish(replica.running);
  if (kv_limit >= 1) iterations = std::min(iterations, kv_limit);
  plan.decode_iterations = std::max(1L, iterations);
  for (size_t i = 0; i < replica.running.size(); ++i) plan.decode.push_back(i);
  return true;
}

bool preempt_newest(ReplicaState& replica, const SchedulerLimits& limits, IterationPlan& plan) {
  if (replica.running.size() <= 1) return false;
  Sequence s = replica.running.back();
  replica.running.pop_back();
  replica.release_shared_start(s);
  ++replica.stats.preemptions;
  ++s.request->preemptions;
  s.needs_prefill = true;
  if (limits.swap_on_preempt) {
    s.swapped = true;
    plan.swap_out_tokens += s.kv_tokens;
  }
  replica.waiting.push_front(s);
  ++plan.preempted;
  return true;
}

}  // namespace rlsim
