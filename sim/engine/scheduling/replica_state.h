// ReplicaState: what one inference replica holds between iterations: the calls waiting to be
// admitted, the running batch, the KV prefix cache and the replica's counters. InferenceInstance
// owns it; its ReplicaScheduler rearranges it at every iteration boundary (replica_scheduler.h says
// what it may change), and the instance's control plane empties it when the replica leaves rollout
// or fails. Token counts are KV slots or tokens, as doubles.
#pragma once

#include <cstddef>
#include <deque>
#include <vector>

#include "sim/engine/request.h"
#include "sim/engine/scheduling/prefix_cache.h"

namespace rlsim {

/// One call on a replica.
struct Sequence {
  LlmRequest* request = nullptr;
  double remaining = 0.0;  ///< tokens still to generate
  double kv_tokens = 0.0;  ///< KV slots held (or to restore)
  /// Its first tokens, a shared start it reads from the prefix cache (pinned there): attended to,
  /// but the cache's KV, not in kv_tokens. Only a running sequence reads one.
  double shared_tokens = 0.0;
  bool needs_prefill = true;
  bool swapped = false;       ///< its KV waits in host memory (swap preemption, save_kv)
  double prefill_left = 0.0;  ///< prompt tokens still to compute since admission (chunked prefill)

  /// A call arriving on a replica; one moved here mid-generation rebuilds its KV by a prefill of
  /// everything so far.
  static Sequence arriving(LlmRequest* call);
  /// The tokens its attention reads: its own KV and the shared start it reads.
  double tokens_in_context() const { return kv_tokens + shared_tokens; }
};

struct InstanceStats {
  long preemptions = 0;
  long prefix_hits = 0;
  long overcommitted_calls = 0;  ///< calls larger than the whole KV capacity, run alone
  double prefix_tokens_saved = 0.0;
};

struct ReplicaState {
  std::deque<Sequence> waiting;   ///< in admission order
  std::vector<Sequence> running;  ///< the batch, oldest first
  PrefixCache prefix_cache;
  /// The deployment keeps prefixes (serve.prefix_cache): a shared start is cached as soon as a
  /// sequence has prefilled it, as vLLM and SGLang reuse blocks once computed.
  bool keeps_prefixes = false;
  InstanceStats stats;

  /// KV slots the running sequences hold themselves (the shared starts they read are the cache's).
  double kv_used() const;
  /// KV slots in use: the running sequences' own and the cached shared starts they read.
  double kv_in_use() const { return kv_used() + prefix_cache.pinned_tokens(); }
  /// Tokens the running sequences (at `indices`) attend to: their KV and the shared starts they read.
  double context_tokens() const;
  double context_tokens(const std::vector<size_t>& indices) const;
  /// The running sequences at `indices` generated `tokens` each with weights `version`.
  void generated(const std::vector<size_t>& indices, double tokens, int version);
  /// With keeps_prefixes, caches the shared start of `call` (its prefix group) as the most recently
  /// used entry.
  void cache_shared_start(const LlmRequest& call);
  /// Running sequence `s` reads the first `tokens` of its call from its cached shared start instead
  /// of holding them: the entry is pinned, and the tokens leave `s.kv_tokens`.
  void read_shared_start(Sequence& s, double tokens);
  /// `s` stops reading its shared start (finished, preempted): the entry is unpinned, and the
  /// tokens are its own again (a preempted sequence rebuilds or saves its whole KV).
  void release_shared_start(Sequence& s);
  /// The running sequences at `indices` finished their prefill at `now_s`: a sequence's first
  /// prefill also produced its first token, with weights `version`; a shared start is cached
  /// (keeps_prefixes) and read from the cache from then on.
  void prefilled(const std::vector<size_t>& indices, double now_s, int version);
  /// Takes out of `waiting`, in order, the calls that hold no KV here yet (all of them when `all`).
  std::vector<Sequence> take_unstarted(bool all);
  /// Preempts the whole batch back to the front of `waiting`, in order, to be prefilled again
  /// (from host memory when `swapped`).
  void requeue_running(bool swapped);
  /// Preempts the whole batch away from this replica (the calls were handed elsewhere).
  void drop_running();
  /// A fault: empties the queues and the cache and returns every call, reset to start over; the
  /// tokens it had generated (with weights `version`) are lost.
  std::vector<Sequence> lose_all(int version);

 private:
  /// Releases every running sequence's shared start, counts a preemption of each and empties the
  /// batch.
  void clear_running();
};

}  // namespace rlsim
