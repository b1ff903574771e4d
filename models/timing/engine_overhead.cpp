// Per-iteration engine terms: CPU work, launch or graph gaps, and how they add to the kernels.
#include "models/timing/engine_overhead.h"

#include <algorithm>

namespace rlsim {

bool EngineOverheadOverride::empty() const {
  return !cpu_fixed_s && !cpu_per_sequence_s && !cpu_per_token_s && !launch_gap_per_layer_s &&
         !graph_gap_per_layer_s;
}

EngineOverhead EngineOverheadOverride::applied_to(EngineOverhead preset) const {
  preset.cpu_fixed_s = cpu_fixed_s.value_or(preset.cpu_fixed_s);
  preset.cpu_per_sequence_s = cpu_per_sequence_s.value_or(preset.cpu_per_sequence_s);
  preset.cpu_per_token_s = cpu_per_token_s.value_or(preset.cpu_per_token_s);
  preset.launch_gap_per_layer_s = launch_gap_per_layer_s.value_or(preset.launch_gap_per_layer_s);
  preset.graph_gap_per_layer_s = graph_gap_per_layer_s.value_or(preset.graph_gap_per_layer_s);
  return preset;
}

double IterationTerms::total_s() const {
  return (cpu_overlapped ? std::max(gpu_s(), cpu_s) : gpu_s() + cpu_s) + pipeline_s;
}

bool replays_cuda_graph(const EngineOverhead& engine, const IterationShape& shape) {
  return shape.tokens <= engine.graph_max_tokens && (!shape.has_prefill || engine.graph_mixed);
}

IterationTerms iteration_terms(const EngineOverhead& engine, const IterationShape& shape, double kernels_s,
                               double allreduce_s) {
  IterationTerms t;
  t.kernels_s = kernels_s;
  t.allreduce_s = allreduce_s;
  const double layers = shape.layers;
  t.cuda_graph = replays_cuda_graph(engine, shape);
  if (t.cuda_graph) {
    t.launch_s = layers * engine.graph_gap_per_layer_s;
  } else {
    // Asynchronous launches: the GPU idles only where launching a layer outlasts running it.
    t.launch_s = std::max(0.0, layers * engine.launch_gap_per_layer_s - (kernels_s + allreduce_s));
  }
  t.cpu_s = engine.cpu_fixed_s + engine.cpu_per_sequence_s * static_cast<double>(shape.sequences) +
            engine.cpu_per_token_s * static_cast<double>(shape.tokens);
  t.cpu_overlapped = engine.overlap_cpu;
  return t;
}

}  // namespace rlsim
