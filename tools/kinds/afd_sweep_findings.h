// What an AFD sweep's summary adds: the points grouped into series (those that differ only in
// `afd.batch`), each series' best batch under the TPOT target and the knee where communication
// (the transfer between attention and FFN GPUs, plus the expert groups' all-gather and
// reduce-scatter when afd.ffn.tp > 1) starts to dominate, said in words, and the plot of TPOT and
// throughput per GPU against batch with the target line.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tools/kinds/rl_sweep_plot.h"
#include "tools/report/svg_plot.h"
#include "tools/sweep/sweep_csv.h"
#include "tools/sweep/sweep_manifest.h"
#include "tools/sweep/sweep_objective.h"

namespace rlsim {

/// The axis along which a series runs; the others name the series.
constexpr char kAfdBatchAxis[] = "afd.batch";

/// Findings of one AFD series (rows sorted by batch).
struct AfdSeriesFindings {
  std::string label;         ///< the fixed axis values, e.g. "cluster.nic.bandwidth=200Gbps"
  std::vector<long> points;  ///< by increasing batch
  std::optional<long> best;  ///< highest tokens/s per GPU among points meeting the target and fitting memory
  std::optional<long> knee;  ///< first point where communication per layer exceeds both compute sides
};

/// Groups an AFD sweep's rows into series and finds each series' best batch and knee.
std::vector<AfdSeriesFindings> analyse_afd_sweep(const SweepTable& table, const SweepManifest& manifest);
/// The best batch and the knee of each series, one line each (prefixed by the series when several).
std::string afd_findings_text(const SweepTable& table, const std::vector<AfdSeriesFindings>& series);
/// TPOT (solid, left) and tokens/s per GPU (dashed, right) against batch per series, and the target;
/// the title names `setup`'s model and cards, the subtitle what was swept and how many points were
/// left out for not fitting in memory (they have no figures to draw).
/// The point the summary names best by `objective` is ringed on its throughput.
LinePlot afd_sweep_plot(const SweepTable& table, const SweepManifest& manifest,
                        const std::vector<AfdSeriesFindings>& series, const SweptSetup& setup,
                        const SweepObjective& objective);

}  // namespace rlsim
