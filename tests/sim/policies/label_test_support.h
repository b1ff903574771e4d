// Running a committed scenario under a policy (in a forked child: one SimGrid engine per process)
// and reading back the figures the label, fault and heterogeneous tests check.
#pragma once

#include <string>
#include <vector>

#include "sim/engine/simulation.h"
#include "tests/sim/sim_test_support.h"

namespace rlsim::test {

/// The figures the label, fault and heterogeneous tests check, from one run.
struct PolicyRun {
  double step_s = 0.0;
  double bubble = 0.0;
  double samples_per_s = 0.0;
  double usd_per_step = 0.0;
  double usd_per_1m_tokens = 0.0;
  double staleness = 0.0;
  double no_work_launched = 0.0;      ///< bubble fraction of that cause
  double rollout_waits_agents = 0.0;  ///< bubble fraction of that cause
  std::string advice;
  int gpus_failed = 0;
  int gpus_stopped = 0;
  double gpu_seconds_lost = 0.0;
  int steps_touched = 0;
  double rollout_pool_fault_s = 0.0;  ///< GPU-seconds of pool "rollout" down or waiting out a repair
  double train_pool_fault_s = 0.0;
};

/// Simulates `scenarios/<file>` with `policy.name=<policy>` and the extra `--set` assignments.
inline PolicyRun simulate_scenario(const std::string& file, const std::string& policy,
                                   std::vector<std::string> sets = {}) {
  const Figures figures = figures_in_child([&]() {
    LoadOptions options;
    options.overrides = sets;
    options.overrides.push_back("policy.name=" + policy);
    options.data_dir = RLSIM_TEST_SOURCE_DIR;
    LoadedScenario loaded = load_scenario(std::string(RLSIM_TEST_SOURCE_DIR) + "/scenarios/" + file, options);
    SimulationResult r = simulate(loaded.scenario);
    const RunMetrics& m = r.metrics;
    double rollout_fault = 0.0, train_fault = 0.0;
    for (const auto& i : r.timeline.intervals()) {
      if (i.state != GpuState::down() && i.state != GpuState::wait(WaitCause::fault)) continue;
      const std::string& pool = r.timeline.tracks()[static_cast<size_t>(i.track)].group;
      (pool == "rollout" ? rollout_fault : train_fault) += i.end_s - i.start_s;
    }
    Figures out;
    out.set("step_s", m.steady_step_time.mean);
    out.set("bubble", m.bubble_fraction);
    out.set("samples_per_s", m.samples_per_s);
    out.set("usd_per_step", m.usd_per_step);
    out.set("usd_per_1m_tokens", m.usd_per_1m_tokens);
    out.set("staleness", m.staleness_mean);
    auto cause = [&](WaitCause c) { return m.bubble_by_cause.count(c) ? m.bubble_by_cause.at(c) : 0.0; };
    out.set("no_work_launched", cause(WaitCause::no_work_launched));
    out.set("rollout_waits_agents", cause(WaitCause::rollout_waits_agents));
    out.set_text("advice", m.advice.recommendation);
    out.set("gpus_failed", m.faults.gpus_failed);
    out.set("gpus_stopped", m.faults.gpus_stopped);
    out.set("gpu_seconds_lost", m.faults.gpu_seconds_lost());
    out.set("steps_touched", static_cast<double>(m.faults.steps_touched.size()));
    out.set("rollout_pool_fault_s", rollout_fault);
    out.set("train_pool_fault_s", train_fault);
    return out;
  });
  PolicyRun f;
  f.step_s = figures.at("step_s");
  f.bubble = figures.at("bubble");
  f.samples_per_s = figures.at("samples_per_s");
  f.usd_per_step = figures.at("usd_per_step");
  f.usd_per_1m_tokens = figures.at("usd_per_1m_tokens");
  f.staleness = figures.at("staleness");
  f.no_work_launched = figures.at("no_work_launched");
  f.rollout_waits_agents = figures.at("rollout_waits_agents");
  f.advice = figures.text("advice");
  f.gpus_failed = static_cast<int>(figures.at("gpus_failed"));
  f.gpus_stopped = static_cast<int>(figures.at("gpus_stopped"));
  f.gpu_seconds_lost = figures.at("gpu_seconds_lost");
  f.steps_touched = static_cast<int>(figures.at("steps_touched"));
  f.rollout_pool_fault_s = figures.at("rollout_pool_fault_s");
  f.train_pool_fault_s = figures.at("train_pool_fault_s");
  return f;
}

}  // namespace rlsim::test
