// PrefixCache: the KV of finished turns kept on one inference replica, so a trajectory's next call
// prefills only its new tokens (vLLM's automatic prefix caching, SGLang's radix cache, at the
// granularity of a whole trajectory), and of prompts many calls start with (a system prompt), so
// each call prefills only what follows it. One entry per trajectory (keyed by its id, >= 0) or
// shared prompt (keyed by shared_prefix_key, < 0), evicted least recently used first.
// The cache only uses KV slots the running sequences do not hold: callers say how much room that
// is, and the cache evicts until what they need fits. An entry running sequences read (a shared
// start, pinned by each of them) is in use and not evicted, as a paged cache keeps a block while
// its reference count is above zero. Token counts are KV slots.
#pragma once

#include <cstddef>
#include <list>
#include <unordered_map>
#include <utility>

namespace rlsim {

/// The cache key of shared prompt `group` (>= 0): negative, so never a trajectory's id.
inline int shared_prefix_key(int group) { return -1 - group; }

class PrefixCache {
 public:
  /// Removes `trajectory`'s cached prefix and returns its tokens; 0 on a miss.
  double take(int trajectory);
  /// `trajectory`'s cached prefix in tokens, left in the cache; 0 on a miss.
  double peek(int trajectory) const;
  /// Caches `tokens` of `trajectory` as the most recently used entry (replacing its older one).
  void insert(int trajectory, double tokens);
  /// Evicts least recently used entries that no running sequence reads until `need_tokens` fit in
  /// `room_tokens` (the KV not held by running sequences) besides what stays cached, or only
  /// entries in use are left.
  void evict_until_free(double need_tokens, double room_tokens);
  /// Drops every entry (the KV memory is gone: the instance left rollout or failed).
  void clear();

  /// One more running sequence reads cached entry `key` (which must be cached): it stays until
  /// every reader has let it go.
  void pin(int key);
  /// A reader of `key` let it go (finished or preempted); nothing when `key` is not cached.
  void unpin(int key);

  double cached_tokens() const { return cached_tokens_; }
  /// Tokens of the entries running sequences read.
  double pinned_tokens() const { return pinned_tokens_; }
  bool contains(int trajectory) const { return index_.count(trajectory) > 0; }
  bool pinned(int key) const;
  size_t size() const { return lru_.size(); }

 private:
  struct Entry {
    int key = 0;
    double tokens = 0.0;
    int readers = 0;  ///< running sequences that pinned it
  };
  using Entries = std::list<Entry>;  ///< most recent first
  void erase(Entries::iterator entry);

  Entries lru_;
  std::unordered_map<int, Entries::iterator> index_;
  double cached_tokens_ = 0.0;
  double pinned_tokens_ = 0.0;
};

}  // namespace rlsim
