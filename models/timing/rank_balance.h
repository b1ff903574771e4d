// How one optimizer step's sequences land on the data-parallel ranks, and what the slowest rank
// costs. RL batches have variable lengths (responses from a few hundred tokens to the length cap), a
// DP rank trains only the sequences it was given, and every optimizer step ends in a gradient
// exchange that waits for all ranks: the rank with the most work sets the step.
//  - balance `tokens`: sequences go, longest first, to the rank with the fewest tokens so far (the
//    greedy longest-processing-time rule, within 4/3 of the best partition: Graham 1969). verl
//    balances ranks by tokens before training (trainer.balance_batch, its Karmarkar-Karp partition);
//    NeMo RL packs and balances sequences likewise.
//  - balance `none`: contiguous chunks in the batch's order, the order the prompts were launched
//    (verl with balance_batch off; any trainer that splits the batch by count).
// A rank's cost is linear in its tokens (the GEMMs and memory-bound ops) plus the attention core,
// whose causal FLOPs grow with the square of each sequence's length: Σ L² over its sequences.
#pragma once

#include <vector>

#include "models/named_enum.h"

namespace rlsim {

/// `training.balance`: how a mini-batch's sequences are split over the DP ranks.
#define RLSIM_RANK_BALANCES(X) X(tokens) X(none)
RLSIM_NAMED_ENUM(RankBalance, RLSIM_RANK_BALANCES)

/// One DP rank's share of a mini-batch.
struct RankLoad {
  double tokens = 0.0;
  double squared_tokens = 0.0;  ///< Σ L² over its sequences (the attention core's causal FLOPs ∝ it)
};

/// The ranks' loads when `sequences` (token counts, in the batch's order) are split over `dp` ranks.
/// Requires dp ≥ 1.
std::vector<RankLoad> split_over_ranks(const std::vector<double>& sequences, int dp, RankBalance balance);

}  // namespace rlsim
