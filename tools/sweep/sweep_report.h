// What a finished sweep prints and writes beside sweep.csv: a table of the points, and for AFD
// sweeps per series (the points that differ only in batch) the best batch under the TPOT target and
// the knee where transfer starts to dominate; an SVG plot (AFD: TPOT and throughput per GPU against
// batch with the target line; RL: step time and samples/s against the first numeric axis); with
// --pareto the points no other point beats on both TPOT and cost per 1M tokens.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "tools/sweep/sweep_csv.h"
#include "tools/sweep/sweep_manifest.h"

namespace rlsim {

/// Findings of one AFD series (rows sorted by batch).
struct AfdSeriesFindings {
  std::string label;         ///< the fixed axis values, e.g. "cluster.nic.bandwidth=200Gbps"
  std::vector<long> points;  ///< by increasing batch
  std::optional<long> best;  ///< highest tokens/s per GPU among points meeting the target and fitting memory
  std::optional<long> knee;  ///< first point where transfer per layer exceeds both compute sides
};

/// Groups an AFD sweep's rows into series and finds each series' best batch and knee.
std::vector<AfdSeriesFindings> analyse_afd_sweep(const SweepTable& table, const SweepManifest& manifest);

/// Points on the cost-vs-TPOT frontier (columns tpot_ms / tpot_p50_ms and usd_per_1m_tokens), by TPOT.
std::vector<long> pareto_points(const SweepTable& table);

struct SweepSummary {
  std::string text;                  ///< printed on stdout
  std::optional<std::string> svg;    ///< sweep.svg
  std::optional<SweepTable> pareto;  ///< pareto.csv
};

SweepSummary summarize_sweep(const SweepTable& table, const SweepManifest& manifest, bool pareto);
/// Writes DIR/sweep.svg and DIR/pareto.csv when the summary has them.
void write_sweep_outputs(const std::filesystem::path& dir, const SweepSummary& summary);

}  // namespace rlsim
