// LRU bookkeeping of the prefix cache: a list in recency order and an index by trajectory.
#include "sim/engine/scheduling/prefix_cache.h"

namespace rlsim {

void PrefixCache::erase(Entries::iterator entry) {
  cached_tokens_ -= entry->second;
  index_.erase(entry->first);
  lru_.erase(entry);
}

double PrefixCache::take(int trajectory) {
  const auto found = index_.find(trajectory);
  if (found == index_.end()) return 0.0;
  const double tokens = found->second->second;
  erase(found->second);
  return tokens;
}

double PrefixCache::peek(int trajectory) const {
  const auto found = index_.find(trajectory);
  return found == index_.end() ? 0.0 : found->second->second;
}

void PrefixCache::insert(int trajectory, double tokens) {
  if (const auto found = index_.find(trajectory); found != index_.end()) erase(found->second);
  lru_.emplace_front(trajectory, tokens);
  index_[trajectory] = lru_.begin();
  cached_tokens_ += tokens;
}

void PrefixCache::evict_until_free(double need_tokens, double room_tokens) {
  while (!lru_.empty() && need_tokens > room_tokens - cached_tokens_) erase(std::prev(lru_.end()));
}

void PrefixCache::clear() {
  lru_.clear();
  index_.clear();
  cached_tokens_ = 0.0;
}

}  // namespace rlsim
