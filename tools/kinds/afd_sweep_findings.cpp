// Finding the best batch and the knee of each series of an AFD sweep, and its plot.
#include "tools/kinds/afd_sweep_findings.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "tools/report/text_format.h"

namespace rlsim {
namespace {

constexpr double kMs = 1e3;  // sweep.csv keeps seconds; the findings and the plot read in ms

/// Column `name` (seconds) of `point` in milliseconds.
double ms(const SweepTable& table, long point, const char* name) { return kMs * table.number(point, name); }

/// What a point's layers spend communicating, ms per layer: the dispatch and combine over the NICs
/// plus, with expert groups (afd.ffn.tp > 1), their all-gather and reduce-scatter (0 without).
double communication_ms(const SweepTable& table, long point) {
  return ms(table, point, "transfer_s_per_layer") + ms(table, point, "ffn_collectives_s_per_layer");
}

/// What the knee line calls a point's communication: "communication" when it includes the expert
/// groups' collectives, "transfer" when it is the NIC transfer alone (plain EP).
const char* communication_word(const SweepTable& table, long point) {
  return table.number(point, "ffn_collectives_s_per_layer") > 0.0 ? "communication" : "transfer";
}

}  // namespace

std::vector<AfdSeriesFindings> analyse_afd_sweep(const SweepTable& table, const SweepManifest& manifest) {
  // A series: the rows that share every swept value except the batch.
  std::map<std::string, AfdSeriesFindings> by_label;
  std::vector<std::string> order;
  for (const auto& [point, cells] : table.rows) {
    std::string label;
    for (const auto& axis : manifest.axes) {
      if (axis.path == kAfdBatchAxis) continue;
      label +=
          (label.empty() ? "" : " ") + axis.path + "=" + cells[static_cast<size_t>(table.column(axis.path))];
    }
    if (label.empty()) label = "all points";
    auto [it, inserted] = by_label.try_emplace(label);
    if (inserted) order.push_back(label);
    it->second.label = label;
    it->second.points.push_back(point);
  }
  std::vector<AfdSeriesFindings> series;
  for (const auto& label : order) {
    AfdSeriesFindings s = by_label[label];
    std::stable_sort(s.points.begin(), s.points.end(),
                     [&](long a, long b) { return table.number(a, "batch") < table.number(b, "batch"); });
    for (long point : s.points) {
      if (!sweep_point_feasible(table, point)) continue;  // not run, or over memory: never best
      const bool fits = table.number(point, "attention_memory_fraction") <= 1.0 &&
                        table.number(point, "ffn_memory_fraction") <= 1.0;
      if (fits && table.number(point, "meets_target") > 0.5 &&
          (!s.best ||
           table.number(point, "tokens_per_s_per_gpu") > table.number(*s.best, "tokens_per_s_per_gpu"))) {
        s.best = point;
      }
      const double communication = communication_ms(table, point);
      if (!s.knee && communication > ms(table, point, "attention_s_per_layer") &&
          communication > ms(table, point, "ffn_s_per_layer")) {
        s.knee = point;
      }
    }
    series.push_back(std::move(s));
  }
  return series;
}

std::string afd_findings_text(const SweepTable& table, const std::vector<AfdSeriesFindings>& series) {
  std::string out;
  for (const auto& s : series) {
    const std::string prefix = series.size() > 1 ? "[" + s.label + "] " : "";
    double target = 0.0;  // from a point that ran (an invalid point's row has no metrics)
    for (long point : s.points) {
      if (sweep_point_feasible(table, point)) target = ms(table, point, "target_tpot_s");
    }
    if (s.best) {
      out += prefix + "best batch under the " + formatted("%g ms", target) +
             " TPOT target: " + formatted("%.0f", table.number(*s.best, "batch")) + " (TPOT " +
             formatted("%.2f ms", ms(table, *s.best, "tpot_s")) + ", " +
             formatted("%.0f tokens/s per GPU", table.number(*s.best, "tokens_per_s_per_gpu")) + ", " +
             formatted("%.3f USD per 1M tokens", table.number(*s.best, "usd_per_1m_tokens")) + ")\n";
    } else {
      out += prefix + "no batch meets the " + formatted("%g ms", target) + " TPOT target (within memory)\n";
    }
    if (s.knee) {
      const double collectives = ms(table, *s.knee, "ffn_collectives_s_per_layer");
      out += prefix + "knee: " + communication_word(table, *s.knee) + " starts to dominate at batch " +
             formatted("%.0f", table.number(*s.knee, "batch")) + " (transfer " +
             formatted("%.3f", ms(table, *s.knee, "transfer_s_per_layer")) +
             (collectives > 0.0 ? " + FFN group AG + RS " + formatted("%.3f", collectives) : std::string()) +
             " ms/layer vs attention " + formatted("%.3f", ms(table, *s.knee, "attention_s_per_layer")) +
             ", FFN " + formatted("%.3f", ms(table, *s.knee, "ffn_s_per_layer")) + ")\n";
    } else if (!s.points.empty()) {
      // Say how close the network came: the largest share of the slower compute side it reached.
      double share = 0.0;
      long at = s.points.front();
      for (long point : s.points) {
        if (!sweep_point_feasible(table, point)) continue;
        const double compute =
            std::max(ms(table, point, "attention_s_per_layer"), ms(table, point, "ffn_s_per_layer"));
        const double ratio = compute > 0.0 ? communication_ms(table, point) / compute : 0.0;
        if (ratio > share) {
          share = ratio;
          at = point;
        }
      }
      out += prefix + "knee: " + communication_word(table, at) +
             " does not dominate within the swept batches (at most " + formatted("%.0f %%", 100.0 * share) +
             " of the slower compute side, at batch " + formatted("%.0f", table.number(at, "batch")) + ")\n";
    }
  }
  return out;
}

LinePlot afd_sweep_plot(const SweepTable& table, const SweepManifest& manifest,
                        const std::vector<AfdSeriesFindings>& series, const SweptSetup& setup,
                        const SweepObjective& objective) {
  LinePlot plot;
  plot.title = "AFD decode: TPOT and tokens/s per GPU vs batch (" + setup.model + ")";
  std::string swept;
  for (const auto& axis : manifest.axes) swept += (swept.empty() ? "" : ", ") + axis.path;
  long excluded = 0;
  for (const auto& [point, cells] : table.rows) excluded += sweep_point_feasible(table, point) ? 0 : 1;
  plot.subtitle = setup.cards + "; swept " + swept + " (" +
                  std::filesystem::path(manifest.scenario).filename().string() + ")" +
                  (excluded > 0 ? "; " + std::to_string(excluded) + " point" + (excluded > 1 ? "s" : "") +
                                      " not drawn: do not fit in memory"
                                : "");
  plot.x_label = "decode batch (sequences)";
  plot.left_label = "TPOT (ms), solid";
  plot.right_label = "tokens/s per GPU, dashed";
  for (const auto& s : series) {
    PlotSeries tpot{(series.size() > 1 ? s.label + " " : "") + "TPOT", {}, false, false, {}};
    PlotSeries throughput{(series.size() > 1 ? s.label + " " : "") + "tokens/s/GPU", {}, true, true, {}};
    for (long point : s.points) {
      if (!sweep_point_feasible(table, point)) continue;  // infeasible points are not drawn
      const double batch = table.number(point, "batch");
      tpot.points.emplace_back(batch, ms(table, point, "tpot_s"));
      throughput.points.emplace_back(batch, table.number(point, "tokens_per_s_per_gpu"));
    }
    plot.series.push_back(std::move(tpot));
    plot.series.push_back(std::move(throughput));
  }
  // The point the summary names best (by default the most tokens/s per GPU meeting the target).
  const std::vector<long> ranked = ranked_sweep_points(table, objective);
  if (!ranked.empty()) {
    const std::optional<long> best = ranked.front();
    plot.best =
        PlotMarker{table.number(*best, "batch"), table.number(*best, "tokens_per_s_per_gpu"), true,
                   "best by " + objective.column + ": " +
                       formatted("%.0f tokens/s per GPU", table.number(*best, "tokens_per_s_per_gpu")) +
                       " at batch " + formatted("%.0f", table.number(*best, "batch"))};
  }
  for (const auto& [point, cells] : table.rows) {
    if (!sweep_point_feasible(table, point)) continue;
    plot.reference = ms(table, point, "target_tpot_s");
    plot.reference_label = "target TPOT " + formatted("%g ms", *plot.reference);
    break;
  }
  return plot;
}

}  // namespace rlsim
