// Grouping engine all-reduce timings into interpolation tables and scoring them.
#include "calibrate/engine_allreduce_fitter.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>

#include "calibrate/median.h"

namespace rlsim {
namespace {

/// Each interior size priced by the line between its two neighbours, against its measured time.
FitError leave_one_out(const EngineAllReduce& table) {
  FitError e;
  e.fit_points = static_cast<int>(table.bytes.size());
  double sum = 0.0;
  for (size_t i = 1; i + 1 < table.bytes.size(); ++i) {
    const double share = (table.bytes[i] - table.bytes[i - 1]) / (table.bytes[i + 1] - table.bytes[i - 1]);
    const double priced = table.seconds[i - 1] + share * (table.seconds[i + 1] - table.seconds[i - 1]);
    const double error = std::abs(priced - table.seconds[i]) / table.seconds[i];
    sum += error;
    e.held_out_max_error = std::max(e.held_out_max_error, error);
    ++e.held_out_points;
  }
  if (e.held_out_points > 0) e.held_out_mape = sum / e.held_out_points;
  return e;
}

}  // namespace

std::vector<EngineAllReduce> engine_allreduce_tables(const std::vector<EngineAllReduceMeasurement>& points) {
  // (engine, gpus, graph) -> bytes -> times
  std::map<std::tuple<std::string, int, bool>, std::map<double, std::vector<double>>> groups;
  for (const EngineAllReduceMeasurement& m : points)
    groups[{m.engine, m.gpus, m.cuda_graph}][m.bytes].push_back(m.seconds);
  std::vector<EngineAllReduce> tables;
  for (const auto& [key, sizes] : groups) {
    EngineAllReduce table;
    std::tie(table.engine, table.gpus, table.cuda_graph) = key;
    for (const auto& [bytes, times] : sizes) {
      table.bytes.push_back(bytes);
      table.seconds.push_back(median(times));
    }
    table.error = leave_one_out(table);
    tables.push_back(std::move(table));
  }
  return tables;
}

}  // namespace rlsim
