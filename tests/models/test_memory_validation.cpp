// Training memory per GPU against published figures, one table: each row names its source, the
// setup and what it assumes, and the tolerance. Only the terms the source counts are compared.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "models/memory/training_memory.h"

using namespace rlsim;

namespace {

struct PublishedMemory {
  const char* source;  ///< paper, table or figure
  const char* setup;   ///< model, parallelism, sharding
  double params;       ///< model parameters (Ψ)
  int dp;
  Sharding sharding;
  double published_gb;  ///< per-GPU model-state memory as published (GB = 1e9 bytes)
  double tolerance;     ///< relative
};

// ZeRO (Rajbhandari et al. 2020, arXiv 1910.02054): mixed-precision Adam, model states only
// (no activations, buffers or fragmentation), K = 12; Pos = zero1, Pos+g = zero2, Pos+g+p = zero3.
const std::vector<PublishedMemory> kPublished{
    {"ZeRO Figure 1", "7.5B, DP 64, baseline", 7.5e9, 64, Sharding::none, 120.0, 0.10},
    {"ZeRO Figure 1", "7.5B, DP 64, Pos", 7.5e9, 64, Sharding::zero1, 31.4, 0.10},
    {"ZeRO Figure 1", "7.5B, DP 64, Pos+g", 7.5e9, 64, Sharding::zero2, 16.6, 0.10},
    {"ZeRO Figure 1", "7.5B, DP 64, Pos+g+p", 7.5e9, 64, Sharding::zero3, 1.9, 0.10},
    {"ZeRO Table 1", "7.5B, DP 4, Pos", 7.5e9, 4, Sharding::zero1, 52.5, 0.10},
    {"ZeRO Table 1", "7.5B, DP 4, Pos+g", 7.5e9, 4, Sharding::zero2, 41.3, 0.10},
    {"ZeRO Table 1", "128B, DP 64, Pos+g+p", 128e9, 64, Sharding::zero3, 32.0, 0.10},
    {"ZeRO Table 1", "1T, DP 1024, Pos+g+p", 1e12, 1024, Sharding::zero3, 15.6, 0.10},
};

}  // namespace

TEST_CASE("training model states per GPU match the ZeRO paper's figures within 10%", "[memory][validation]") {
  for (const PublishedMemory& row : kPublished) {
    TrainingLayout layout;
    layout.dp = row.dp;
    layout.sharding = row.sharding;
    const double gb = model_state_bytes_per_gpu(row.params, layout) / 1e9;
    INFO(row.source << ": " << row.setup << ": rlsim " << gb << " GB, published " << row.published_gb
                    << " GB");
    CHECK(std::abs(gb - row.published_gb) <= row.tolerance * row.published_gb);
  }
}
