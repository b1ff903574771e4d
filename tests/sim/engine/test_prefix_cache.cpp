// PrefixCache: hits and misses, least-recently-used eviction that frees exactly what is needed,
// replacement of a trajectory's older entry, entries pinned by their readers, and clearing.
#include <catch2/catch.hpp>
#include <stdexcept>

#include "sim/engine/scheduling/prefix_cache.h"

using namespace rlsim;

TEST_CASE("prefix cache: a cached trajectory is a hit once, then a miss") {
  PrefixCache cache;
  cache.insert(7, 1000.0);
  CHECK(cache.contains(7));
  CHECK(cache.take(8) == 0.0);  // miss: nothing cached for it
  CHECK(cache.take(7) == 1000.0);
  CHECK_FALSE(cache.contains(7));
  CHECK(cache.take(7) == 0.0);  // taken out: the next call misses
  CHECK(cache.cached_tokens() == 0.0);
}

TEST_CASE("prefix cache: eviction goes least recently used first and stops as soon as the need fits") {
  PrefixCache cache;
  cache.insert(1, 100.0);
  cache.insert(2, 200.0);
  cache.insert(3, 300.0);
  cache.insert(1, 150.0);  // trajectory 1 again: its older entry is replaced, and it is the newest now
  CHECK(cache.size() == 3);
  CHECK(cache.cached_tokens() == 650.0);
  // Room 1000 tokens, need 500: 350 free besides the cache, so 150 must go; the oldest entry (2,
  // 200 tokens) is enough, and nothing more is evicted.
  cache.evict_until_free(500.0, 1000.0);
  CHECK_FALSE(cache.contains(2));
  CHECK(cache.contains(3));
  CHECK(cache.contains(1));
  CHECK(cache.cached_tokens() == 450.0);
  // Need exactly what is free: nothing goes.
  cache.evict_until_free(550.0, 1000.0);
  CHECK(cache.size() == 2);
  // One token more: the next oldest (3) goes, the newest (1) stays.
  cache.evict_until_free(551.0, 1000.0);
  CHECK_FALSE(cache.contains(3));
  CHECK(cache.contains(1));
  CHECK(cache.cached_tokens() == 150.0);
}

TEST_CASE("prefix cache: a take refreshes nothing, an insert makes its entry the newest") {
  PrefixCache cache;
  cache.insert(1, 10.0);
  cache.insert(2, 10.0);
  cache.insert(1, cache.take(1));     // put back after a refused admission: newest again
  cache.evict_until_free(0.0, 10.0);  // room for one entry only
  CHECK(cache.contains(1));
  CHECK_FALSE(cache.contains(2));
}

TEST_CASE("prefix cache: a need larger than the room empties the cache and stops") {
  PrefixCache cache;
  cache.insert(1, 10.0);
  cache.insert(2, 20.0);
  cache.evict_until_free(1e9, 100.0);
  CHECK(cache.size() == 0);
  CHECK(cache.cached_tokens() == 0.0);
}

TEST_CASE("prefix cache: clear drops every entry") {
  PrefixCache cache;
  cache.insert(1, 10.0);
  cache.insert(2, 20.0);
  cache.clear();
  CHECK(cache.size() == 0);
  CHECK(cache.cached_tokens() == 0.0);
  CHECK(cache.take(1) == 0.0);
  cache.insert(3, 5.0);  // usable after a clear
  CHECK(cache.cached_tokens() == 5.0);
}

TEST_CASE("prefix cache: an entry running sequences read is not evicted until the last lets it go") {
  PrefixCache cache;
  cache.insert(shared_prefix_key(0), 400.0);  // a shared start, the oldest entry
  cache.insert(5, 100.0);
  cache.pin(shared_prefix_key(0));
  cache.pin(shared_prefix_key(0));  // two readers
  CHECK(cache.pinned_tokens() == 400.0);
  // Need everything: only the unpinned entry goes, and eviction stops there.
  cache.evict_until_free(1000.0, 1000.0);
  CHECK_FALSE(cache.contains(5));
  CHECK(cache.contains(shared_prefix_key(0)));
  CHECK(cache.cached_tokens() == 400.0);
  // Refreshed with more tokens while read: still pinned, at its new size.
  cache.insert(shared_prefix_key(0), 500.0);
  CHECK(cache.pinned_tokens() == 500.0);
  cache.unpin(shared_prefix_key(0));
  cache.evict_until_free(1000.0, 1000.0);
  CHECK(cache.contains(shared_prefix_key(0)));  // one reader left
  cache.unpin(shared_prefix_key(0));
  CHECK_FALSE(cache.pinned(shared_prefix_key(0)));
  CHECK(cache.pinned_tokens() == 0.0);
  cache.evict_until_free(1000.0, 1000.0);
  CHECK(cache.size() == 0);
  cache.unpin(shared_prefix_key(0));  // gone: nothing to let go
  CHECK(cache.pinned_tokens() == 0.0);
  CHECK_THROWS_AS(cache.pin(shared_prefix_key(0)), std::logic_error);
}

TEST_CASE("prefix cache: clear drops pinned entries too") {
  PrefixCache cache;
  cache.insert(shared_prefix_key(1), 50.0);
  cache.pin(shared_prefix_key(1));
  cache.clear();
  CHECK(cache.pinned_tokens() == 0.0);
  CHECK(cache.cached_tokens() == 0.0);
}
