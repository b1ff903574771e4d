// A scenario simulated with extra overrides, reduced to the figures trials are ranked by (trial_run.h).
#include "tools/advice/trial_run.h"

#include <stdexcept>

#include "sim/engine/simulation.h"
#include "tools/report/run_report.h"

namespace rlsim {

std::pair<double, double> steady_step(const nlohmann::json& metrics) {
  const nlohmann::json& step = metrics["step_time_s"];
  const nlohmann::json& ci = step["steady_ci95"];
  const double half =
      ci.is_array() && ci.size() == 2 ? (ci[1].get<double>() - ci[0].get<double>()) / 2.0 : 0.0;
  return {step["steady_mean"].get<double>(), half};
}

std::string simulate_trial(const std::string& file, LoadOptions options,
                           const std::vector<std::string>& sets) {
  for (const std::string& set : sets) options.overrides.push_back(set);
  try {
    const LoadedScenario loaded = load_scenario(file, options);
    check_policy(loaded.scenario);
    const nlohmann::json m = metrics_json(loaded.scenario, simulate(loaded.scenario).metrics);
    const auto [mean, half] = steady_step(m);
    return nlohmann::json{{"ran", true},
                          {"steady", mean},
                          {"half", half},
                          {"usd", m["cost"]["usd_per_step"]},
                          {"staleness", m["staleness"]["mean_versions"]},
                          {"phases", m["phases_s"]}}
        .dump();
  } catch (const InputError& e) {
    // The memory checks say "does not fit" (sim/scenario/memory_check.cpp).
    const bool memory = e.message().find("does not fit") != std::string::npos;
    return nlohmann::json{{"ran", false}, {"memory", memory}, {"why", e.message()}}.dump();
  } catch (const std::exception& e) {
    // A trial that fails otherwise is not ranked either; the command that tried it goes on.
    return nlohmann::json{{"ran", false}, {"memory", false}, {"why", std::string("failed: ") + e.what()}}
        .dump();
  }
}

nlohmann::json trial_json(const TrialFigures& f) {
  if (!f.ran) return {{"ran", false}, {"memory", f.memory}, {"why", f.why_not}};
  return {{"ran", true},
          {"steady", f.steady_step_s},
          {"half", f.steady_half_width_s},
          {"usd", f.usd_per_step},
          {"staleness", f.staleness},
          {"phases", {{"rollout", f.rollout_s}, {"train", f.train_s}, {"weight_sync", f.weight_sync_s}}}};
}

TrialFigures trial_figures(const std::string& json_text) {
  const nlohmann::json j = nlohmann::json::parse(json_text);
  TrialFigures f;
  f.ran = j["ran"].get<bool>();
  if (!f.ran) {
    f.memory = j["memory"].get<bool>();
    f.why_not = j["why"].get<std::string>();
    return f;
  }
  f.steady_step_s = j["steady"].get<double>();
  f.steady_half_width_s = j["half"].get<double>();
  f.usd_per_step = j["usd"].get<double>();
  f.staleness = j["staleness"].get<double>();
  const nlohmann::json& phases = j["phases"];
  f.rollout_s = phases.value("rollout", 0.0);
  f.train_s = phases.value("train", 0.0);
  f.weight_sync_s = phases.value("weight_sync", 0.0);
  return f;
}

}  // namespace rlsim
