// Measured serving iterations from CSV, for `rlsim calibrate --format serving`. Columns, exactly:
// model,hardware,tp,batch,prompt_tokens,context_tokens,phase,measured_ms. A `prefill` row is one
// iteration prefilling `batch` sequences of `prompt_tokens` new tokens each after `context_tokens`
// cached; a `decode` row one iteration of `batch` sequences, each with `context_tokens` of
// context. Bad cells are InputErrors at FILE:LINE:COL.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/input_error.h"

namespace rlsim {

struct ServingMeasurement {
  std::string model;     ///< catalog model name
  std::string hardware;  ///< catalog card name
  int tp = 1;
  int64_t batch = 1;
  int64_t prompt_tokens = 0;
  int64_t context_tokens = 0;
  bool prefill = false;  ///< else decode
  double measured_s = 0.0;
  SourceLocation where;  ///< the row, for errors found later (unknown model, other card)
  SourceLocation model_where;
  SourceLocation hardware_where;
};

/// Every row of `path`; InputError at the first bad cell or a missing column.
std::vector<ServingMeasurement> import_serving_csv(const std::string& path);

}  // namespace rlsim
