// What changed between two runs' output folders (`rlsim diff A B`): every figure of metrics.json
// whose value differs, with the change and the relative change, and the resolved.yaml lines that
// differ (the inputs that changed).
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
/// Lines of `a` not in `b` ("- …") and of `b` not in `a` ("+ …"), in file order.
std::vector<std::string> diff_lines(const std::string& a, const std::string& b);
/// The printed report: the input lines that changed, then the figures.
std::string diff_report(const std::string& name_a, const std::string& name_b,
                        const std::vector<std::string>& inputs, const std::vector<FigureChange>& figures);

}  // namespace rlsim
