// Summaries, plots and the Pareto frontier of a finished sweep.
#include "tools/sweep/sweep_report.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>

#include "tools/report/svg_plot.h"

namespace rlsim {
namespace {

double cell_number(const SweepTable& table, long point, const std::string& column) {
  const int c = table.column(column);
  if (c < 0) return 0.0;
  return std::strtod(table.rows.at(point)[static_cast<size_t>(c)].c_str(), nullptr);
}

bool numeric(const std::string& text) {
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size();
}

std::string fmt(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

const char* tpot_column(const SweepTable& table) {
  return table.column("tpot_ms") >= 0 ? "tpot_ms" : "tpot_p50_ms";
}

/// The table's `columns` as aligned text, rows in `order` (default: by point).
std::string table_text(const SweepTable& table, const std::vector<std::string>& columns,
                       std::vector<long> order = {}) {
  if (order.empty()) {
    for (const auto& [point, cells] : table.rows) order.push_back(point);
  }
  std::vector<std::string> shown;
  for (const auto& column : columns) {
    if (table.column(column) >= 0) shown.push_back(column);
  }
  std::vector<size_t> width;
  for (const auto& column : shown) width.push_back(column.size());
  for (const auto& [point, cells] : table.rows) {
    for (size_t k = 0; k < shown.size(); ++k)
      width[k] = std::max(width[k], cells[static_cast<size_t>(table.column(shown[k]))].size());
  }
  std::string out;
  auto add_row = [&](const std::vector<std::string>& cells) {
    std::string line = " ";
    for (size_t k = 0; k < cells.size(); ++k)
      line += " " + std::string(width[k] - cells[k].size(), ' ') + cells[k];
    out += line + "\n";
  };
  add_row(shown);
  for (long point : order) {
    const auto& cells = table.rows.at(point);
    std::vector<std::string> row;
    for (const auto& column : shown) row.push_back(cells[static_cast<size_t>(table.column(column))]);
    add_row(row);
  }
  return out;
}

std::string afd_findings_text(const SweepTable& table, const std::vector<AfdSeriesFindings>& series) {
  std::string out;
  for (const auto& s : series) {
    const std::string prefix = series.size() > 1 ? "[" + s.label + "] " : "";
    const double target = s.points.empty() ? 0.0 : cell_number(table, s.points.front(), "target_tpot_ms");
    if (s.best) {
      out += prefix + "best batch under the " + fmt("%g ms", target) +
             " TPOT target: " + fmt("%.0f", cell_number(table, *s.best, "batch")) + " (TPOT " +
             fmt("%.2f ms", cell_number(table, *s.best, "tpot_ms")) + ", " +
             fmt("%.0f tokens/s per GPU", cell_number(table, *s.best, "tokens_per_s_per_gpu")) + ", " +
             fmt("%.3f USD per 1M tokens", cell_number(table, *s.best, "usd_per_1m_tokens")) + ")\n";
    } else {
      out += prefix + "no batch meets the " + fmt("%g ms", target) + " TPOT target (within memory)\n";
    }
    if (s.knee) {
      out += prefix + "knee: transfer starts to dominate at batch " +
             fmt("%.0f", cell_number(table, *s.knee, "batch")) + " (transfer " +
             fmt("%.3f", cell_number(table, *s.knee, "transfer_ms_per_layer")) + " ms/layer vs attention " +
             fmt("%.3f", cell_number(table, *s.knee, "attention_ms_per_layer")) + ", FFN " +
             fmt("%.3f", cell_number(table, *s.knee, "ffn_ms_per_layer")) + ")\n";
    } else if (!s.points.empty()) {
      // Say how close the network came: the largest share of the slower compute side it reached.
      double share = 0.0;
      long at = s.points.front();
      for (long point : s.points) {
        const double compute = std::max(cell_number(table, point, "attention_ms_per_layer"),
                                        cell_number(table, point, "ffn_ms_per_layer"));
        const double ratio =
            compute > 0.0 ? cell_number(table, point, "transfer_ms_per_layer") / compute : 0.0;
        if (ratio > share) {
          share = ratio;
          at = point;
        }
      }
      out += prefix + "knee: transfer does not dominate within the swept batches (at most " +
             fmt("%.0f %%", 100.0 * share) + " of the slower compute side, at batch " +
             fmt("%.0f", cell_number(table, at, "batch")) + ")\n";
    }
  }
  return out;
}

LinePlot afd_plot(const SweepTable& table, const SweepManifest& manifest,
                  const std::vector<AfdSeriesFindings>& series) {
  LinePlot plot;
  plot.title = manifest.scenario + ": TPOT and throughput per GPU vs batch";
  plot.x_label = "decode batch (sequences)";
  plot.left_label = "TPOT (ms), solid";
  plot.right_label = "tokens/s per GPU, dashed";
  for (const auto& s : series) {
    PlotSeries tpot{(series.size() > 1 ? s.label + " " : "") + "TPOT", {}, false, false};
    PlotSeries throughput{(series.size() > 1 ? s.label + " " : "") + "tokens/s/GPU", {}, true, true};
    for (long point : s.points) {
      const double batch = cell_number(table, point, "batch");
      tpot.points.emplace_back(batch, cell_number(table, point, "tpot_ms"));
      throughput.points.emplace_back(batch, cell_number(table, point, "tokens_per_s_per_gpu"));
    }
    plot.series.push_back(std::move(tpot));
    plot.series.push_back(std::move(throughput));
  }
  if (!table.rows.empty()) {
    plot.reference = cell_number(table, table.rows.begin()->first, "target_tpot_ms");
    plot.reference_label = "target TPOT " + fmt("%g ms", *plot.reference);
  }
  return plot;
}

std::optional<LinePlot> rl_plot(const SweepTable& table, const SweepManifest& manifest) {
  if (manifest.axes.empty() || table.rows.empty()) return std::nullopt;
  const SweepAxis& axis = manifest.axes.front();
  if (!std::all_of(axis.values.begin(), axis.values.end(), numeric)) return std::nullopt;
  LinePlot plot;
  plot.title = manifest.scenario + ": step time and samples/s vs " + axis.path;
  plot.x_label = axis.path;
  plot.left_label = "step time (s), solid";
  plot.right_label = "samples/s, dashed";
  PlotSeries step{"step time", {}, false, false}, samples{"samples/s", {}, true, true};
  std::vector<long> points;
  for (const auto& [point, cells] : table.rows) points.push_back(point);
  std::sort(points.begin(), points.end(), [&](long a, long b) {
    return cell_number(table, a, axis.path) < cell_number(table, b, axis.path);
  });
  for (long point : points) {
    const double x = cell_number(table, point, axis.path);
    step.points.emplace_back(x, cell_number(table, point, "step_time_s"));
    samples.points.emplace_back(x, cell_number(table, point, "samples_per_s"));
  }
  plot.series = {step, samples};
  return plot;
}

}  // namespace

std::vector<AfdSeriesFindings> analyse_afd_sweep(const SweepTable& table, const SweepManifest& manifest) {
  // A series: the rows that share every swept value except the batch.
  std::map<std::string, AfdSeriesFindings> by_label;
  std::vector<std::string> order;
  for (const auto& [point, cells] : table.rows) {
    std::string label;
    for (const auto& axis : manifest.axes) {
      if (axis.path == "afd.batch") continue;
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
    std::stable_sort(s.points.begin(), s.points.end(), [&](long a, long b) {
      return cell_number(table, a, "batch") < cell_number(table, b, "batch");
    });
    for (long point : s.points) {
      const bool fits = cell_number(table, point, "attention_memory_fraction") <= 1.0 &&
                        cell_number(table, point, "ffn_memory_fraction") <= 1.0;
      if (fits && cell_number(table, point, "meets_target") > 0.5 &&
          (!s.best || cell_number(table, point, "tokens_per_s_per_gpu") >
                          cell_number(table, *s.best, "tokens_per_s_per_gpu"))) {
        s.best = point;
      }
      const double transfer = cell_number(table, point, "transfer_ms_per_layer");
      if (!s.knee && transfer > cell_number(table, point, "attention_ms_per_layer") &&
          transfer > cell_number(table, point, "ffn_ms_per_layer")) {
        s.knee = point;
      }
    }
    series.push_back(std::move(s));
  }
  return series;
}

std::vector<long> pareto_points(const SweepTable& table) {
  const char* tpot = tpot_column(table);
  std::vector<long> points;
  for (const auto& [point, cells] : table.rows) points.push_back(point);
  std::sort(points.begin(), points.end(), [&](long a, long b) {
    const double ta = cell_number(table, a, tpot), tb = cell_number(table, b, tpot);
    if (ta != tb) return ta < tb;
    return cell_number(table, a, "usd_per_1m_tokens") < cell_number(table, b, "usd_per_1m_tokens");
  });
  // Walking by increasing TPOT, a point is on the frontier when it is cheaper than all before it.
  std::vector<long> frontier;
  double cheapest = INFINITY;
  for (long point : points) {
    const double cost = cell_number(table, point, "usd_per_1m_tokens");
    if (cost < cheapest) {
      frontier.push_back(point);
      cheapest = cost;
    }
  }
  return frontier;
}

SweepSummary summarize_sweep(const SweepTable& table, const SweepManifest& manifest, bool pareto) {
  SweepSummary summary;
  std::vector<std::string> columns;
  for (const auto& axis : manifest.axes) {
    if (!(manifest.kind == "afd" && axis.path == "afd.batch")) columns.push_back(axis.path);
  }
  if (manifest.kind == "afd") {
    for (const char* c :
         {"batch", "tpot_ms", "tokens_per_s_per_gpu", "attention_ms_per_layer", "transfer_ms_per_layer",
          "ffn_ms_per_layer", "ffn_utilization", "usd_per_1m_tokens", "meets_target"}) {
      columns.emplace_back(c);
    }
  } else {
    for (const char* c :
         {"step_time_s", "samples_per_s", "bubble_fraction", "usd_per_step", "usd_per_1m_tokens"}) {
      columns.emplace_back(c);
    }
  }
  summary.text = "sweep results (" + std::to_string(table.rows.size()) + " of " +
                 std::to_string(manifest.points) + " points):\n" + table_text(table, columns);
  if (manifest.kind == "afd") {
    const auto series = analyse_afd_sweep(table, manifest);
    summary.text += afd_findings_text(table, series);
    summary.svg = render_svg(afd_plot(table, manifest, series));
  } else if (auto plot = rl_plot(table, manifest)) {
    summary.svg = render_svg(*plot);
  }
  if (pareto) {
    SweepTable frontier;
    frontier.header = table.header;
    const std::vector<long> by_tpot = pareto_points(table);
    for (long point : by_tpot) frontier.rows[point] = table.rows.at(point);
    summary.text += "Pareto frontier (cost per 1M tokens vs TPOT, " + std::to_string(frontier.rows.size()) +
                    " points):\n";
    std::vector<std::string> pareto_columns{"point"};
    for (const auto& axis : manifest.axes) pareto_columns.push_back(axis.path);
    for (const char* c : {tpot_column(table), "usd_per_1m_tokens", "tokens_per_s_per_gpu", "meets_target"}) {
      pareto_columns.emplace_back(c);
    }
    summary.text += table_text(frontier, pareto_columns, by_tpot);
    summary.pareto = std::move(frontier);
  }
  return summary;
}

void write_sweep_outputs(const std::filesystem::path& dir, const SweepSummary& summary) {
  if (summary.svg) std::ofstream(dir / "sweep.svg", std::ios::binary) << *summary.svg;
  if (summary.pareto) write_sweep_csv(dir / "pareto.csv", *summary.pareto);
}

}  // namespace rlsim
