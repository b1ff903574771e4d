// Alpha-beta formulas of the collectives (see collectives.h for the sources).
#include "models/timing/collectives.h"

#include <cassert>
#include <cmath>

namespace rlsim {
namespace {

double log2_ceil(int ranks) { return std::ceil(std::log2(static_cast<double>(ranks))); }

void check(double bytes, int ranks, const LinkSpec& link) {
  assert(bytes >= 0.0 && ranks >= 1 && "a collective needs a non-negative size and at least one rank");
  assert(link.bandwidth_bytes_per_s > 0.0 && link.latency_s >= 0.0 && "a link needs a positive bandwidth");
  (void)bytes, (void)ranks, (void)link;
}

}  // namespace

std::string_view to_string(CollectiveAlgorithm a) { return a == CollectiveAlgorithm::ring ? "ring" : "tree"; }

double all_reduce_seconds(double bytes, int ranks, const LinkSpec& link, CollectiveAlgorithm algorithm) {
  check(bytes, ranks, link);
  if (ranks == 1) return 0.0;
  const double p = ranks, a = link.latency_s, b = link.bandwidth_bytes_per_s;
  if (algorithm == CollectiveAlgorithm::tree) return 2.0 * log2_ceil(ranks) * a + 2.0 * bytes / b;
  return 2.0 * (p - 1.0) * a + 2.0 * (p - 1.0) / p * bytes / b;
}

double all_gather_seconds(double bytes, int ranks, const LinkSpec& link, CollectiveAlgorithm algorithm) {
  check(bytes, ranks, link);
  if (ranks == 1) return 0.0;
  const double p = ranks, a = link.latency_s, b = link.bandwidth_bytes_per_s;
  const double steps = algorithm == CollectiveAlgorithm::tree ? log2_ceil(ranks) : p - 1.0;
  return steps * a + (p - 1.0) / p * bytes / b;
}

double reduce_scatter_seconds(double bytes, int ranks, const LinkSpec& link, CollectiveAlgorithm algorithm) {
  return all_gather_seconds(bytes, ranks, link, algorithm);
}

double all_to_all_seconds(double bytes, int ranks, const LinkSpec& link) {
  check(bytes, ranks, link);
  if (ranks == 1) return 0.0;
  const double p = ranks;
  return (p - 1.0) * link.latency_s + (p - 1.0) / p * bytes / link.bandwidth_bytes_per_s;
}

double broadcast_seconds(double bytes, int ranks, const LinkSpec& link, CollectiveAlgorithm algorithm) {
  check(bytes, ranks, link);
  if (ranks == 1) return 0.0;
  const double a = link.latency_s, b = link.bandwidth_bytes_per_s;
  if (algorithm == CollectiveAlgorithm::tree) return log2_ceil(ranks) * (a + bytes / b);
  return (ranks - 1.0) * a + bytes / b;
}

}  // namespace rlsim
