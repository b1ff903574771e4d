// Summaries, plots and the Pareto frontier of a finished sweep.
#include "tools/sweep/sweep_report.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>

#include "tools/report/html_report.h"
#include "tools/report/output_dir.h"
#include "tools/sweep/sweep_objective.h"

namespace rlsim {
namespace {

const char* tpot_column(const SweepTable& table) {
  return table.column("tpot_s") >= 0 ? "tpot_s" : "tpot_p50_s";
}

/// A column of seconds as the table shows it in milliseconds: "ttft_p99_s" -> "ttft_p99_ms",
/// "attention_s_per_layer" -> "attention_ms_per_layer".
std::string header_in_ms(const std::string& column) {
  const size_t end = column.rfind("_s");
  if (end != std::string::npos && end + 2 == column.size()) return column.substr(0, end) + "_ms";
  const size_t inner = column.find("_s_");
  return inner == std::string::npos ? column : column.substr(0, inner) + "_ms_" + column.substr(inner + 3);
}

std::string cell_in_ms(const std::string& cell) {
  if (cell.empty()) return cell;
  return csv_number(1e3 * std::strtod(cell.c_str(), nullptr));
}

/// The table's `columns` as aligned text, rows in `order` (default: by point, the points that ran;
/// those that did not fit have no figures and are listed by excluded_text instead). Columns in
/// `in_ms` are printed in milliseconds.
std::string table_text(const SweepTable& table, const std::vector<std::string>& columns,
                       const std::set<std::string>& in_ms, std::vector<long> order = {}) {
  if (order.empty()) {
    const int reason = table.column(kInvalidReasonColumn);
    for (const auto& [point, cells] : table.rows) {
      if (reason < 0 || cells[static_cast<size_t>(reason)].empty()) order.push_back(point);
    }
  }
  std::vector<std::string> shown;
  for (const auto& column : columns) {
    if (table.column(column) >= 0) shown.push_back(column);
  }
  auto shown_cell = [&](long point, const std::string& column) {
    const std::string& cell = table.rows.at(point)[static_cast<size_t>(table.column(column))];
    return in_ms.count(column) ? cell_in_ms(cell) : cell;
  };
  std::vector<std::string> headers;
  for (const auto& column : shown) headers.push_back(in_ms.count(column) ? header_in_ms(column) : column);
  std::vector<size_t> width;
  for (const auto& header : headers) width.push_back(header.size());
  for (long point : order) {
    for (size_t k = 0; k < shown.size(); ++k)
      width[k] = std::max(width[k], shown_cell(point, shown[k]).size());
  }
  std::string out;
  auto add_row = [&](const std::vector<std::string>& cells) {
    std::string line = " ";
    for (size_t k = 0; k < cells.size(); ++k)
      line += " " + std::string(width[k] - cells[k].size(), ' ') + cells[k];
    out += line + "\n";
  };
  add_row(headers);
  for (long point : order) {
    std::vector<std::string> row;
    for (const auto& column : shown) {
      const std::string cell = shown_cell(point, column);
      row.push_back(cell.empty() ? "-" : cell);  // a figure the point has none of
    }
    add_row(row);
  }
  return out;
}

/// One line per point left out of the best choice and the frontier, with the reason.
std::string excluded_text(const SweepTable& table, const SweepManifest& manifest) {
  const int reason = table.column(kInvalidReasonColumn);
  std::string out;
  for (const auto& [point, cells] : table.rows) {
    if (sweep_point_feasible(table, point)) continue;
    const std::string why = reason >= 0 && !cells[static_cast<size_t>(reason)].empty()
                                ? cells[static_cast<size_t>(reason)]
                                : "does not fit in GPU memory";
    out += "excluded " + sweep_point_text(table, manifest, point) + ": " + why + "\n";
  }
  return out;
}

}  // namespace

std::vector<long> pareto_points(const SweepTable& table) {
  const char* tpot = tpot_column(table);
  std::vector<long> points;  // only points that ran and fit in memory can be on the frontier
  for (const auto& [point, cells] : table.rows) {
    if (sweep_point_feasible(table, point)) points.push_back(point);
  }
  std::sort(points.begin(), points.end(), [&](long a, long b) {
    const double ta = table.number(a, tpot), tb = table.number(b, tpot);
    if (ta != tb) return ta < tb;
    return table.number(a, "usd_per_1m_tokens") < table.number(b, "usd_per_1m_tokens");
  });
  // Walking by increasing TPOT, a point is on the frontier when it is cheaper than all before it.
  std::vector<long> frontier;
  double cheapest = INFINITY;
  for (long point : points) {
    const double cost = table.number(point, "usd_per_1m_tokens");
    if (cost < cheapest) {
      frontier.push_back(point);
      cheapest = cost;
    }
  }
  return frontier;
}

SweepSummary summarize_sweep(const SweepTable& table, const SweepManifest& manifest,
                             const SweepKindReport& kind, bool pareto) {
  SweepSummary summary;
  summary.text = "sweep results (" + std::to_string(table.rows.size()) + " of " +
                 std::to_string(manifest.points) + " points):\n" +
                 table_text(table, kind.columns, kind.in_ms) + excluded_text(table, manifest) + kind.findings;
  if (kind.plot) summary.svg = render_svg(*kind.plot);
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
    std::set<std::string> in_ms = kind.in_ms;
    in_ms.insert(tpot_column(table));
    summary.text += table_text(frontier, pareto_columns, in_ms, by_tpot);
    summary.pareto = std::move(frontier);
  }
  return summary;
}

void write_sweep_outputs(const std::filesystem::path& dir, const SweepSummary& summary) {
  if (summary.svg) replace_file_atomically(dir / "sweep.svg", *summary.svg);
  std::vector<HtmlSection> sections{{"Points", html_pre(summary.text)}};
  if (summary.svg) sections.emplace_back("Plot", *summary.svg);
  replace_file_atomically(dir / "report.html", html_page("rlsim sweep: " + dir.string(), sections));
  if (summary.pareto) write_sweep_csv(dir / "pareto.csv", *summary.pareto);
}

}  // namespace rlsim
