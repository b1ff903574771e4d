// LRU bookkeeping of the prefix cache: a list in recency order, an index by key, and each entry's
// readers (running sequences that pinned it).
#include "sim/engine/scheduling/prefix_cache.h"

#include <stdexcept>

namespace rlsim {

void PrefixCache::erase(Entries::iterator entry) {
  cached_tokens_ -= entry->tokens;
  if (entry->readers > 0) pinned_tokens_ -= entry->tokens;
  index_.erase(entry->key);
  lru_.erase(entry);
}

double PrefixCache::take(int trajectory) {
  const auto found = index_.find(trajectory);
  if (found == index_.end()) return 0.0;
  const double tokens = found->second->tokens;
  erase(found->second);
  return tokens;
}

double PrefixCache::peek(int trajectory) const {
  const auto found = index_.find(trajectory);
  return found == index_.end() ? 0.0 : found->second->tokens;
}

void PrefixCache::insert(int trajectory, double tokens) {
  int readers = 0;
  if (const auto found = index_.find(trajectory); found != index_.end()) {
    readers = found->second->readers;
    erase(found->second);
  }
  lru_.push_front(Entry{trajectory, tokens, readers});
  index_[trajectory] = lru_.begin();
  cached_tokens_ += tokens;
  if (readers > 0) pinned_tokens_ += tokens;
}

void PrefixCache::evict_until_free(double need_tokens, double room_tokens) {
  // Walks from the least recently used end; `kept` is the oldest entry in use met so far.
  auto kept = lru_.end();
  while (kept != lru_.begin() && need_tokens > room_tokens - cached_tokens_) {
    const auto older = std::prev(kept);
    if (older->readers == 0) {
      erase(older);
    } else {
      kept = older;
    }
  }
}

void PrefixCache::pin(int key) {
  const auto found = index_.find(key);
  if (found == index_.end()) throw std::logic_error("PrefixCache::pin: entry not cached");
  if (found->second->readers++ == 0) pinned_tokens_ += found->second->tokens;
}

void PrefixCache::unpin(int key) {
  const auto found = index_.find(key);
  if (found == index_.end() || found->second->readers == 0) return;
  if (--found->second->readers == 0) pinned_tokens_ -= found->second->tokens;
}

bool PrefixCache::pinned(int key) const {
  const auto found = index_.find(key);
  return found != index_.end() && found->second->readers > 0;
}

void PrefixCache::clear() {
  lru_.clear();
  index_.clear();
  cached_tokens_ = 0.0;
  pinned_tokens_ = 0.0;
}

}  // namespace rlsim
