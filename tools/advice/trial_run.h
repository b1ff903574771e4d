// A trial: the scenario simulated with a few more `--set` overrides, in the child process that runs
// it, reduced to the figures the advisor (measured_advice.h) and the planner (tools/plan/) rank
// trials by — the steady step time with its 95 % half width, the cost per step and the staleness —
// or to why it could not run (a load, memory-fit or policy refusal). The child sends the figures
// to the parent as one JSON text.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "sim/scenario/scenario_loader.h"

namespace rlsim {

struct TrialFigures {
  bool ran = false;
  bool memory = false;  ///< it did not run because it does not fit the GPUs' memory
  std::string why_not;  ///< the refusal's message when it did not run
  double steady_step_s = 0.0;
  double steady_half_width_s = 0.0;  ///< 0 without an interval (too few steady steps)
  double usd_per_step = 0.0;
  double staleness = 0.0;
  /// The steady steps' mean phases (metrics.json phases_s): rollout, training, weight sync.
  double rollout_s = 0.0, train_s = 0.0, weight_sync_s = 0.0;
};

/// Runs in a child: `file` with `options` and then `sets` loaded, checked and simulated; the
/// figures as JSON text (trial_figures reads it back).
std::string simulate_trial(const std::string& file, LoadOptions options,
                           const std::vector<std::string>& sets);

/// The figures a child's simulate_trial sent.
TrialFigures trial_figures(const std::string& json_text);
/// `figures` as the JSON simulate_trial sends (trial_figures reads it back).
nlohmann::json trial_json(const TrialFigures& figures);

/// A metrics.json's steady mean step time and its 95 % half width (0 without an interval).
std::pair<double, double> steady_step(const nlohmann::json& metrics);

}  // namespace rlsim
