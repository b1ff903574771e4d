// What a finished sweep prints and writes beside sweep.csv: a table of the points, then what the
// scenario kind adds (tools/kinds/: e.g. AFD's best batch under the TPOT target and knee), an SVG
// plot of the kind's choosing, and with --pareto the points no other point beats on both TPOT and
// cost per 1M tokens.
#pragma once

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tools/report/svg_plot.h"
#include "tools/sweep/sweep_csv.h"
#include "tools/sweep/sweep_manifest.h"

namespace rlsim {

/// Points on the cost-vs-TPOT frontier (columns tpot_ms / tpot_p50_ms and usd_per_1m_tokens), by TPOT.
std::vector<long> pareto_points(const SweepTable& table);

struct SweepSummary {
  std::string text;                  ///< printed on stdout
  std::optional<std::string> svg;    ///< sweep.svg
  std::optional<SweepTable> pareto;  ///< pareto.csv
};

/// A scenario kind's part of the summary (ScenarioKind::sweep_report).
struct SweepKindReport {
  std::vector<std::string> columns;  ///< the table's columns, in order (absent ones skipped)
  /// Columns of seconds the table prints in milliseconds (a TTFT, a TPOT): "ttft_p99_s" is shown
  /// as "ttft_p99_ms", its cells times 1,000. sweep.csv keeps seconds.
  std::set<std::string> in_ms;
  std::string findings;          ///< printed after the table
  std::optional<LinePlot> plot;  ///< sweep.svg
};

/// The summary of `table` (the points finished so far): the kind's table, findings and plot, and
/// with `pareto` the frontier.
SweepSummary summarize_sweep(const SweepTable& table, const SweepManifest& manifest,
                             const SweepKindReport& kind, bool pareto);
/// Writes DIR/sweep.svg and DIR/pareto.csv when the summary has them.
void write_sweep_outputs(const std::filesystem::path& dir, const SweepSummary& summary);

}  // namespace rlsim
