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

/// Physical bounds of the workload's drawn quantities. Tokens: the bound `workload.max_context_tokens`
/// already has (10^8, ten times the 10M-token context of the longest-context open models); turns:
/// LLM calls of one trajectory (their mean is bounded lower, by resource_limits.h); a tool call: a
/// week.
constexpr double kMaxTokensPerSequence = 1e8;
constexpr double kMaxTurnsPerTrajectory = 1e6;
constexpr double kMaxToolLatencySeconds = 7 * 24 * 3600.0;
/// Times in recorded workloads (a trace's arrivals, a ledger's submit and finish): within a year.
constexpr double kMaxRecordedSeconds = 365 * 24 * 3600.0;

/// `unit` nullopt = plain numbers (tokens, turns); otherwise values need that unit. Every value
/// written must lie in [min_allowed, max_allowed] (max_allowed in the unit's canonical terms:
/// seconds for a duration), and samples are cut at max_allowed (Distribution::limit).
Distribution read_distribution(YamlReader& parent, const Field& field, std::optional<Quantity> unit,
                               const Distribution& fallback, double min_allowed, double max_allowed);

}  // namespace rlsim
