// Per-layer engine gaps as medians of measured (whole layer − sum of its kernels).
#include "calibrate/engine_gap_fitter.h"

#include <algorithm>
#include <functional>
#include <vector>

#include "calibrate/median.h"

namespace rlsim {
namespace {

/// Gaps of the decoder_layer records selected; a layer faster than its kernels alone (warm caches
/// between kernels) has no gap to add, so negative differences count as 0.
std::vector<double> layer_gaps(const MeasurementSet& m, const std::string& phase, const std::string& launch) {
  std::vector<double> gaps;
  for (const auto& e : m.engine_overheads) {
    if (e.kind == "decoder_layer" && e.phase == phase && e.launch == launch)
      gaps.push_back(std::max(0.0, e.seconds - e.kernel_sum_seconds));
  }
  return gaps;
}

}  // namespace

std::optional<EngineGaps> fit_engine_gaps(const MeasurementSet& measurements) {
  const std::vector<double> stream = layer_gaps(measurements, "decode", "stream");
  const std::vector<double> graph = layer_gaps(measurements, "decode", "graph");
  if (stream.empty() || graph.empty()) return std::nullopt;
  EngineGaps g;
  g.launch_gap_per_layer_s = median(stream);
  g.graph_gap_per_layer_s = median(graph);
  g.decode_layers = static_cast<int>(std::min(stream.size(), graph.size()));
  const std::vector<double> prefill = layer_gaps(measurements, "prefill", "stream");
  if (!prefill.empty()) g.prefill_launch_gap_per_layer_s = median(prefill);
  std::vector<double> launches;
  for (const auto& e : measurements.engine_overheads) {
    if (e.kind == "launch_latency" && e.launch == "stream") launches.push_back(e.seconds);
  }
  if (!launches.empty()) g.kernel_launch_s = median(launches);
  return g;
}

}  // namespace rlsim
