// Ranking a sweep's points by one figure.
#include "tools/sweep/sweep_objective.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "models/input_error.h"
#include "tools/report/text_format.h"

namespace rlsim {
namespace {

bool ends_with(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

std::string sweep_point_text(const SweepTable& table, const SweepManifest& manifest, long point) {
  std::string values;
  for (const auto& axis : manifest.axes) {
    values += (values.empty() ? "" : " ") + axis.path + "=" +
              table.rows.at(point)[static_cast<size_t>(table.column(axis.path))];
  }
  return "point " + std::to_string(point) + " (" + values + ")";
}

SweepObjective sweep_objective(const std::string& column) {
  const bool higher = ends_with(column, "_per_s") || ends_with(column, "_per_s_per_gpu") ||
                      ends_with(column, "utilization") || column == "goodput_fraction";
  return {column, !higher};
}

SweepObjective chosen_sweep_objective(const std::string& given, const std::string& fallback,
                                      const std::vector<std::string>& columns) {
  const std::string column = given.empty() ? fallback : given;
  if (std::find(columns.begin(), columns.end(), column) == columns.end() || column == "meets_target") {
    std::string names;
    for (const auto& c : columns) {
      if (c != "meets_target") names += (names.empty() ? "" : ", ") + c;
    }
    throw InputError({"--objective " + given, 1, 1},
                     "expected one of this kind's figures: " + names + "; found '" + column + "'");
  }
  return sweep_objective(column);
}

std::vector<long> ranked_sweep_points(const SweepTable& table, const SweepObjective& objective) {
  const int column = table.column(objective.column);
  const int target = table.column("meets_target");
  std::vector<long> ranked;
  for (const auto& [point, cells] : table.rows) {
    if (!sweep_point_feasible(table, point)) continue;
    if (target >= 0 && cells[static_cast<size_t>(target)] != "1") continue;
    if (column >= 0 && !cells[static_cast<size_t>(column)].empty()) ranked.push_back(point);
  }
  // Stable: a tie keeps grid order, so the first point of the grid is named.
  std::stable_sort(ranked.begin(), ranked.end(), [&](long a, long b) {
    const double va = table.number(a, objective.column), vb = table.number(b, objective.column);
    return objective.lower_is_better ? va < vb : va > vb;
  });
  return ranked;
}

std::string sweep_winner_line(const SweepTable& table, const SweepManifest& manifest,
                              const SweepObjective& objective) {
  const int column = table.column(objective.column);
  const int target = table.column("meets_target");
  const std::string head = "best by " + objective.column + " (" +
                           (objective.lower_is_better ? "lower" : "higher") + " is better): ";
  const std::vector<long> ranked = ranked_sweep_points(table, objective);
  if (ranked.empty()) {
    bool any_feasible = false;
    for (const auto& [point, cells] : table.rows)
      any_feasible = any_feasible || sweep_point_feasible(table, point);
    if (!any_feasible) return head + "no point fits in memory\n";
    if (target >= 0) return head + "no point meets the target\n";
    return head + "no point has a figure for it (" + objective.column + ")\n";
  }
  const long best = ranked.front();
  const std::string best_cell = table.rows.at(best)[static_cast<size_t>(column)];
  std::string line = head + sweep_point_text(table, manifest, best) + " " + best_cell;
  if (ranked.size() == 1) return line + ", the only point that qualifies\n";
  const long second = ranked[1];
  const double v1 = table.number(best, objective.column), v2 = table.number(second, objective.column);
  const std::string second_text =
      sweep_point_text(table, manifest, second) + " " + table.rows.at(second)[static_cast<size_t>(column)];
  if (v1 == v2) return line + ", tied with " + second_text + " (the grid's first is named)\n";
  const double margin = v2 != 0.0 ? std::fabs(v2 - v1) / std::fabs(v2) : 0.0;
  return line + ", " + percent_of(margin) + " better than the runner-up " + second_text + "\n";
}

}  // namespace rlsim
