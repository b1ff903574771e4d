// Splitting a mini-batch's sequences over DP ranks (see rank_balance.h).
#include "models/timing/rank_balance.h"

#include <algorithm>
#include <cassert>
#include <functional>
#include <queue>
#include <utility>

namespace rlsim {

std::vector<RankLoad> split_over_ranks(const std::vector<double>& sequences, int dp, RankBalance balance) {
  assert(dp >= 1 && "a split needs at least one rank");
  std::vector<RankLoad> ranks(static_cast<size_t>(dp));
  auto add = [](RankLoad& rank, double tokens) {
    rank.tokens += tokens;
    rank.squared_tokens += tokens * tokens;
  };
  if (balance == RankBalance::none) {
    // Contiguous chunks of (nearly) equal count, in the batch's order.
    const size_t n = sequences.size();
    for (size_t i = 0; i < n; ++i)
      add(ranks[i * static_cast<size_t>(dp) / std::max<size_t>(n, 1)], sequences[i]);
    return ranks;
  }
  std::vector<double> longest_first = sequences;
  std::sort(longest_first.begin(), longest_first.end(), std::greater<>());
  // Min-heap of (tokens so far, rank); ties go to the lower rank, so the split is deterministic.
  using Entry = std::pair<double, int>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> least;
  for (int r = 0; r < dp; ++r) least.emplace(0.0, r);
  for (double tokens : longest_first) {
    auto [load, rank] = least.top();
    least.pop();
    add(ranks[static_cast<size_t>(rank)], tokens);
    least.emplace(load + tokens, rank);
  }
  return ranks;
}

}  // namespace rlsim
