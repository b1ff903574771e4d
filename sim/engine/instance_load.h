// An inference instance's load over time (running and waiting sequences, KV slots held, sampled at
// its iteration boundaries) and the figures users compare with their engine's logs: decode batch
// occupancy (running sequences / max_batch, as vLLM's "Running: N reqs") and KV use (slots held /
// KV capacity, as vLLM's "GPU KV cache usage"). One definition for serving benchmarks and RL
// rollout: the time-weighted mean per instance, averaged over instances, and the highest sample.
#pragma once

#include <functional>
#include <vector>

namespace rlsim {

/// The replica's load from `time_s` until the next sample: sequences running and waiting, and the
/// KV slots the running ones hold, as its scheduler left them at an iteration boundary, and the
/// sequences it preempted so far.
struct LoadSample {
  double time_s = 0.0;
  int running = 0;
  int waiting = 0;
  double kv_tokens = 0.0;
  long preemptions = 0;  ///< sequences preempted since the run began (cumulative)
};

/// One instance's samples with the limits its figures are fractions of.
struct InstanceLoad {
  std::vector<LoadSample> samples;
  int max_batch = 1;
  double kv_capacity_tokens = 0.0;
};

struct LoadFigures {
  double batch_occupancy = 0.0;  ///< mean running sequences / max_batch, averaged over instances
  double kv_use_mean = 0.0;      ///< mean KV slots held / KV capacity, averaged over instances
  double kv_use_max = 0.0;       ///< the highest of any instance at any sample counted
};

/// ∫ value(sample) dt over [from, to] of the step function `load` (each sample holds until the
/// next, the last until `to`; zero before the first).
double load_integral(const std::vector<LoadSample>& load, double from, double to,
                     const std::function<double(const LoadSample&)>& value);

/// The highest KV fraction among the samples that hold at some time in [from, to].
double peak_kv_use(const std::vector<LoadSample>& load, double from, double to, double kv_capacity_tokens);

/// RL rollout: each instance's figures over the time it is generating (at least one sequence
/// running) within [from_s, to_s] (the steady steps), so that the waits between steps do not dilute
/// them; instances that never generated then are left out of the average.
LoadFigures generating_load_figures(const std::vector<InstanceLoad>& instances, double from_s, double to_s);

}  // namespace rlsim
