// Measured serving iterations from CSV, for `rlsim calibrate --format serving`. Columns, exactly:
// model,hardware,tp,batch,prompt_tokens,context_tokens,phase,measured_ms. A `prefill` row is one
// iteration prefilling `batch` sequences of `prompt_tokens` new tokens each after `context_tokens`
// cached; a `decode` row one iteration of `batch` sequences, each with `context_tokens` of
// context; a `generate` row one static batch run to the end, as latency benchmarks time it (vLLM's
// benchmark_latency, TensorRT-LLM's and NeMo's latency tables): `batch` sequences prefill
// `prompt_tokens` each, then decode until each holds `context_tokens` (prompt + output), and
// measured_ms is the whole batch's latency. Bad cells are InputErrors at FILE:LINE:COL.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/input_error.h"

namespace rlsim {

/// What a row timed: one prefill iteration, one decode iteration, or a whole static batch.
enum class ServingPhase { prefill, decode, generate };

/// Output tokens a `generate` row may ask for: longer than any published latency benchmark's.
constexpr int64_t kMostGeneratedTokens = 1 << 17;

struct ServingMeasurement {
  std::string model;     ///< catalog model name
  std::string hardware;  ///< catalog card name
  int tp = 1;
  int64_t batch = 1;
  int64_t prompt_tokens = 0;
  int64_t context_tokens = 0;
  ServingPhase phase = ServingPhase::decode;
  /// A generate row's output tokens per sequence (its context beyond the prompt).
  int64_t generated_tokens() const { return context_tokens - prompt_tokens; }
  double measured_s = 0.0;
  SourceLocation where;  ///< the row, for errors found later (unknown model, other card)
  SourceLocation model_where;
  SourceLocation hardware_where;
};

/// Every row of `path`; InputError at the first bad cell or a missing column.
std::vector<ServingMeasurement> import_serving_csv(const std::string& path);

}  // namespace rlsim
