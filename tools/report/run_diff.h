// What changed between two runs' output folders (`rlsim diff A B`): every figure of metrics.json
// whose value differs, with the change and the relative change (the biggest relative changes
// first), after the inputs that changed (tools/report/input_diff.h).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace rlsim {

/// One figure that differs: its dotted path (`step_time_s.mean`, `per_step.2.train_s`) and values.
struct FigureChange {
  std::string path;
  std::string before;
  std::string after;
  double relative = 0.0;  ///< (after - before) / |before| for numbers; 0 otherwise
};

/// The leaves of `a` and `b` that differ (numbers differing by more than 1e-12 relative), in path order.
std::vector<FigureChange> diff_metrics(const nlohmann::json& a, const nlohmann::json& b);
/// The printed report: the inputs that changed (`path: before -> after`), then the figures, the
/// numbers by the size of their relative change, biggest first, then the rest in path order.
std::string diff_report(const std::string& name_a, const std::string& name_b,
                        const std::vector<FigureChange>& inputs, std::vector<FigureChange> figures);

}  // namespace rlsim
