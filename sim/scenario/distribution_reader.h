// Reading a Distribution from YAML. Accepted forms (durations carry units, counts are numbers):
//   output_tokens: 1024                                    # fixed
//   output_tokens: {uniform: {min: 256, max: 4096}}
//   output_tokens: {normal: {mean: 1024, stddev: 256}, min: 1}
//   output_tokens: {lognormal: {mean: 1500, sigma: 1.0}, max: 16384}
//   output_tokens: {empirical: [[512, 0.5], [2048, 0.3], [16384, 0.2]]}   # value, weight
//   tool_latency:  {lognormal: {mean: 2s, sigma: 1.0}, max: 60s}
#pragma once

#include <optional>
#include <string>

#include "models/units.h"
#include "sim/scenario/distribution.h"
#include "sim/scenario/yaml_reader.h"

namespace rlsim {

/// `unit` nullopt = plain numbers (tokens, turns); otherwise values need that unit.
Distribution read_distribution(YamlReader& parent, const Field& field, std::optional<Quantity> unit,
                               const Distribution& fallback, double min_allowed);

}  // namespace rlsim
