// Resource limits of one scenario, checked before it runs.
#include "sim/scenario/resource_limits.h"

#include <cmath>
#include <string>

#include "models/units.h"

namespace rlsim {
namespace {

std::string count_text(double value) {
  return format_number(static_cast<double>(static_cast<int64_t>(value)));
}

std::string gigabytes_text(double bytes) {
  const double tenths = std::ceil(bytes / static_cast<double>(1ull << 30) * 10.0);
  return format_number(tenths / 10.0) + " GiB";
}

int64_t gpu_count(const Scenario& s) {
  int64_t gpus = 0;
  for (const PoolSpec& pool : s.cluster.pools) gpus += int64_t{pool.nodes} * pool.gpus_per_node;
  return gpus;
}

}  // namespace

double estimated_memory_bytes(const Scenario& s, const ResourceLimits& limits) {
  const WorkloadSpec& w = s.workload;
  const double trajectories = static_cast<double>(w.prompts_per_step) * w.samples_per_prompt;
  const double calls = trajectories * w.turns.nominal_mean() * w.steps;
  return trajectories * limits.bytes_per_trajectory + calls * limits.bytes_per_llm_call +
         static_cast<double>(gpu_count(s)) * limits.bytes_per_gpu;
}

void check_resource_limits(const Scenario& s, const YamlReader& workload, const YamlReader& cluster,
                           const ResourceLimits& limits) {
  const int64_t gpus = gpu_count(s);
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
  const double memory = estimated_memory_bytes(s, limits);
  if (memory > limits.memory_bytes) {
    const double in_step = static_cast<double>(trajectories) * limits.bytes_per_trajectory;
    const double in_calls = calls * limits.bytes_per_llm_call;
    const double in_gpus = static_cast<double>(gpus) * limits.bytes_per_gpu;
    const std::string why = "the run would take about " + gigabytes_text(memory) + " of memory (" +
                            count_text(trajectories) + " trajectories in a step " + gigabytes_text(in_step) +
                            ", " + count_text(calls) + " LLM calls " + gigabytes_text(in_calls) + ", " +
                            std::to_string(gpus) + " GPUs " + gigabytes_text(in_gpus) +
                            "); one run may take at most " + gigabytes_text(limits.memory_bytes);
    if (in_gpus >= in_step && in_gpus >= in_calls) cluster.fail("pools", why + ": fewer GPUs");
    if (in_step >= in_calls) workload.fail("prompts_per_step", why + ": fewer prompts per step");
    workload.fail("steps", why + ": fewer steps, or fewer prompts per step");
  }
}

}  // namespace rlsim
