// The metrics of a kernel-level validation case (validation_manifest.h's OpCase): its op priced by
// the datasheet roofline on its catalog card, as `rlsim cost gemm` prices it without a profile.
#pragma once

#include <nlohmann/json.hpp>

#include "tools/validation/validation_manifest.h"

namespace rlsim {

/// {"hardware", "cost_model", "op": {m, n, k, groups, dtype, flops, bytes}, "seconds", "tflops"}:
/// what the case's metric (`seconds` or `tflops`) is read from.
nlohmann::json op_case_metrics(const OpCase& c);

}  // namespace rlsim
