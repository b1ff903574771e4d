// Resource limits of one scenario, checked before it runs.
#include "sim/scenario/resource_limits.h"

#include <string>

#include "models/units.h"

namespace rlsim {
namespace {

std::string count_text(double value) {
  return format_number(static_cast<double>(static_cast<int64_t>(value)));
}

}  // namespace

void check_resource_limits(const Scenario& s, const YamlReader& workload, const YamlReader& cluster,
                           const ResourceLimits& limits) {
  int64_t gpus = 0;
  for (const PoolSpec& pool : s.cluster.pools) gpus += int64_t{pool.nodes} * pool.gpus_per_node;
  if (gpus > limits.gpus) {
    cluster.fail("pools", "the pools hold " + std::to_string(gpus) + " GPUs; rlsim simulates at most " +
                              std::to_string(limits.gpus) + " GPUs in one cluster");
  }

  const WorkloadSpec& w = s.workload;
  const int64_t trajectories = int64_t{w.prompts_per_step} * w.samples_per_prompt;
  if (trajectories > limits.trajectories_per_step) {
    workload.fail("prompts_per_step",
                  "prompts_per_step × samples_per_prompt = " + std::to_string(trajectories) +
                      " trajectories per step; at most " + std::to_string(limits.trajectories_per_step) +
                      " per step can be simulated");
  }
  const double turns = w.turns.nominal_mean();
  if (turns > limits.turns_per_trajectory) {
    workload.fail("turns", "a mean of " + count_text(turns) + " LLM calls per trajectory; at most " +
                               count_text(limits.turns_per_trajectory) + " on average can be simulated");
  }
  const double calls = static_cast<double>(trajectories) * turns * w.steps;
  if (calls > limits.llm_calls) {
    workload.fail("steps", "the run makes about " + count_text(calls) +
                               " LLM calls (trajectories per step × mean turns × steps); at most " +
                               count_text(limits.llm_calls) + " can be simulated in one run: fewer steps, " +
                               "or fewer prompts per step");
  }
}

}  // namespace rlsim
