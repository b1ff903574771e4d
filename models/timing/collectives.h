// Collective communication time by the alpha-beta (Hockney) model: a message of n bytes over a
// link costs α + n/β (α = latency, β = bandwidth). Formulas for ring, tree and pairwise algorithms
// follow Thakur, Rabenseifner & Gropp, "Optimization of Collective Communication Operations in
// MPICH" (IJHPCA 2005), and NCCL's ring / double-binary-tree all-reduce. `bytes` is always the
// size of the full buffer on one rank (see each function); `ranks` ≥ 1; one rank costs nothing.
// The engine may instead issue the real comms on SimGrid links; these are for closed-form costs.
#pragma once

#include <string_view>

namespace rlsim {

/// The link each rank sends over: per-rank bandwidth (bytes/s, one direction) and latency (s).
struct LinkSpec {
  double bandwidth_bytes_per_s = 0.0;
  double latency_s = 0.0;
};

enum class CollectiveAlgorithm {
  ring,  ///< bandwidth-optimal; latency grows linearly with ranks
  tree,  ///< latency grows with log2(ranks); pipelined trees keep full bandwidth for large messages
};
std::string_view to_string(CollectiveAlgorithm a);

/// All-reduce of a `bytes` buffer on every rank. Ring: 2(p−1)α + 2(p−1)/p · bytes/β.
/// Tree (pipelined double binary tree): 2⌈log2 p⌉α + 2 · bytes/β.
double all_reduce_seconds(double bytes, int ranks, const LinkSpec& link,
                          CollectiveAlgorithm algorithm = CollectiveAlgorithm::ring);
/// All-gather producing a `bytes` buffer on every rank (each contributes bytes/p).
/// Ring: (p−1)α + (p−1)/p · bytes/β; tree (recursive doubling): ⌈log2 p⌉α + (p−1)/p · bytes/β.
double all_gather_seconds(double bytes, int ranks, const LinkSpec& link,
                          CollectiveAlgorithm algorithm = CollectiveAlgorithm::ring);
/// Reduce-scatter of a `bytes` buffer on every rank (each ends with bytes/p); same cost as all-gather.
double reduce_scatter_seconds(double bytes, int ranks, const LinkSpec& link,
                              CollectiveAlgorithm algorithm = CollectiveAlgorithm::ring);
/// All-to-all where every rank sends `bytes` in total, bytes/p to each rank (pairwise exchange):
/// (p−1)α + (p−1)/p · bytes/β.
double all_to_all_seconds(double bytes, int ranks, const LinkSpec& link);
/// Broadcast of `bytes` from one rank to all. Ring (pipelined chain): (p−1)α + bytes/β;
/// tree (binomial, unpipelined): ⌈log2 p⌉(α + bytes/β).
double broadcast_seconds(double bytes, int ranks, const LinkSpec& link,
                         CollectiveAlgorithm algorithm = CollectiveAlgorithm::ring);

}  // namespace rlsim
