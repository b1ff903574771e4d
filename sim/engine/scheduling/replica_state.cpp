// Whole-batch moves of a replica's sequences, for the control plane (preemption, faults).
#include "sim/engine/scheduling/replica_state.h"

#include <algorithm>

namespace rlsim {

Sequence Sequence::arriving(LlmRequest* call) {
  Sequence s;
  s.request = call;
  s.remaining = call->output_tokens - call->generated_tokens;
  if (call->generated_tokens > 0.0)
    s.kv_tokens = call->context_tokens + call->new_tokens + call->generated_tokens;
  return s;
}

double ReplicaState::kv_used() const {
  double used = 0.0;
  for (const auto& s : running) used += s.kv_tokens;
  return used;
}

double ReplicaState::context_tokens() const {
  double tokens = 0.0;
  for (const auto& s : running) tokens += s.tokens_in_context();
  return tokens;
}

double ReplicaState::context_tokens(const std::vector<size_t>& indices) const {
  double tokens = 0.0;
  for (size_t i : indices) tokens += running[i].tokens_in_context();
  return tokens;
}

void ReplicaState::generated(const std::vector<size_t>& indices, double tokens, int version) {
  for (size_t i : indices) {
    Sequence& s = running[i];
    s.remaining -= tokens;
    s.kv_tokens += tokens;
    s.request->version_token_sum += tokens * version;
  }
}

void ReplicaState::cache_shared_start(const LlmRequest& call) {
  if (!keeps_prefixes || call.prefix_group < 0) return;
  const int key = shared_prefix_key(call.prefix_group);
  prefix_cache.insert(key, std::max(prefix_cache.peek(key), call.shared_prefix_tokens));
}

void ReplicaState::read_shared_start(Sequence& s, double tokens) {
  prefix_cache.pin(shared_prefix_key(s.request->prefix_group));
  s.kv_tokens -= tokens;
  s.shared_tokens = tokens;
}

void ReplicaState::release_shared_start(Sequence& s) {
  if (s.shared_tokens == 0.0) return;
  prefix_cache.unpin(shared_prefix_key(s.request->prefix_group));
  s.kv_tokens += s.shared_tokens;
  s.shared_tokens = 0.0;
}

void ReplicaState::prefilled(const std::vector<size_t>& indices, double now_s, int version) {
  for (size_t i : indices) {
    Sequence& s = running[i];
    s.needs_prefill = false;
    cache_shared_start(*s.request);
    // Its own copy of the shared start is now the cache's: vLLM and SGLang map a computed block's
    // hash to one copy.
    if (keeps_prefixes && s.request->prefix_group >= 0 && s.shared_tokens == 0.0 &&
        s.request->shared_prefix_tokens > 0.0)
      read_shared_start(s, s.request->shared_prefix_tokens);
    if (s.request->first_token_s == 0.0) {
      s.request->first_token_s = now_s;
      s.remaining -= 1.0;
      s.kv_tokens += 1.0;
      s.request->version_token_sum += version;
    }
  }
}

std::vector<Sequence> ReplicaState::take_unstarted(bool all) {
  std::vector<Sequence> taken;
  std::deque<Sequence> kept;
  for (const Sequence& s : waiting) {
    if (all || (s.kv_tokens == 0.0 && !s.swapped)) {
      taken.push_back(s);
    } else {
      kept.push_back(s);
    }
  }
  waiting.swap(kept);
  return taken;
}

void ReplicaState::requeue_running(bool swapped) {
  for (auto it = running.rbegin(); it != running.rend(); ++it) {
    release_shared_start(*it);
    it->needs_prefill = true;
    it->swapped = swapped;
    waiting.push_front(*it);
  }
  clear_running();
}

void ReplicaState::drop_running() { clear_running(); }

void ReplicaState::clear_running() {
  stats.preemptions += static_cast<long>(running.size());
  for (auto& s : running) {
    release_shared_start(s);
    ++s.request->preemptions;
  }
  running.clear();
}

std::vector<Sequence> ReplicaState::lose_all(int version) {
  std::vector<Sequence> lost(running.begin(), running.end());
  lost.insert(lost.end(), waiting.begin(), waiting.end());
  running.clear();
  waiting.clear();
  for (Sequence& s : lost) {
    LlmRequest& r = *s.request;
    // Its tokens so far are gone (counted with the current weights); it starts over.
    r.version_token_sum -= (r.output_tokens - s.remaining) * version;
    r.first_token_s = 0.0;
    s.remaining = r.output_tokens;
    s.kv_tokens = 0.0;
    s.shared_tokens = 0.0;  // the cache is dropped below
    s.needs_prefill = true;
    s.swapped = false;
  }
  prefix_cache.clear();
  return lost;
}

}  // namespace rlsim
