// Reading an engine's time beyond kernels (models/timing/engine_overhead.h) from YAML: a preset of
// the engine catalog (scenarios/catalog/engines.yaml, `engines:`) and a calibrated profile's
// `engine:` block, which overrides the preset's measured terms for its card. The term keys are the
// same in both, in seconds: cpu_fixed_s, cpu_per_sequence_s, cpu_per_token_s,
// launch_gap_per_layer_s, graph_gap_per_layer_s.
#pragma once

#include "models/timing/engine_overhead.h"
#include "sim/scenario/yaml_reader.h"

namespace rlsim {

/// The measured terms `r` sets (each optional); the caller calls finish().
EngineOverheadOverride read_engine_terms(YamlReader& r);
/// One preset of the engine catalog: name, description, source, the terms, CUDA-graph and overlap
/// settings (defaults: EngineOverhead{}).
EngineOverhead read_engine_preset(YamlReader& r);

}  // namespace rlsim
