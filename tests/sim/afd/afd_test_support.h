// Helpers for the AFD tests: load scenarios/afd-step3.yaml (or inline YAML) with overrides, and run
// one AFD simulation in a forked child (one SimGrid engine per process), bringing back its metrics.
#pragma once

#include <string>
#include <vector>

#include "sim/afd/afd_simulation.h"
#include "sim/scenario/afd_reader.h"
#include "tests/sim/sim_test_support.h"

namespace rlsim::test {

inline std::string step3_file() { return std::string(RLSIM_TEST_SOURCE_DIR) + "/scenarios/afd-step3.yaml"; }

inline LoadedAfdScenario load_afd(const std::string& file, std::vector<std::string> overrides = {}) {
  LoadOptions options;
  options.overrides = std::move(overrides);
  options.data_dir = RLSIM_TEST_SOURCE_DIR;
  return load_afd_scenario(file, options);
}

/// The figures the tests compare, simulated in a child process.
struct AfdFigures {
  double tpot_s = 0, batch_latency_s = 0, analytic_s = 0, link_utilization = 0, tokens_per_s_per_gpu = 0;
  double transfer_s_per_layer = 0, ffn_s_per_layer = 0, group_collective_s_per_layer = 0;
  long activities = 0;
};

inline AfdFigures simulate_afd_in_child(const std::string& file, const std::vector<std::string>& overrides) {
  const Figures figures = figures_in_child([&]() {
    const AfdMetrics m = simulate_afd(load_afd(file, overrides).scenario).metrics;
    Figures out;
    out.set("tpot_s", m.tpot_s);
    out.set("batch_latency_s", m.batch_latency_s);
    out.set("analytic_s", m.analytic.iteration_s);
    out.set("link_utilization", m.max_link_utilization);
    out.set("tokens_per_s_per_gpu", m.tokens_per_s_per_gpu);
    out.set("transfer_s_per_layer", m.transfer_s_per_layer);
    out.set("ffn_s_per_layer", m.ffn_s_per_layer);
    out.set("group_collective_s_per_layer", m.group_collective_s_per_layer);
    out.set("activities", static_cast<double>(m.activities));
    return out;
  });
  AfdFigures f;
  f.tpot_s = figures.at("tpot_s");
  f.batch_latency_s = figures.at("batch_latency_s");
  f.analytic_s = figures.at("analytic_s");
  f.link_utilization = figures.at("link_utilization");
  f.tokens_per_s_per_gpu = figures.at("tokens_per_s_per_gpu");
  f.transfer_s_per_layer = figures.at("transfer_s_per_layer");
  f.ffn_s_per_layer = figures.at("ffn_s_per_layer");
  f.group_collective_s_per_layer = figures.at("group_collective_s_per_layer");
  f.activities = static_cast<long>(figures.at("activities"));
  return f;
}

}  // namespace rlsim::test
