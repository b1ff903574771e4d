// Importer for the measurements JSON that our kernel suite (calibrate/kernels, `rlsim-kernels`)
// writes. Layout (format "rlsim-measurements", version 1):
//   {"format": "rlsim-measurements", "version": 1, "date": "2025-06-01",
//    "device": {"name", "sm_count", "l2_bytes", "sm_clock_mhz", "memory_clock_mhz",
//               "driver_version", "cuda_runtime_version", "compute_capability"},
//    "points": [{"op": "gemm", "name", "dtype", "m", "n", "k", "seconds", "flops", "bytes"},
//               {"op": "grouped_gemm", ..., "groups"},
//               {"op": "attention_decode" | "attention_prefill", "name", "dtype", "kv_dtype",
//                "batch", "q_len", "kv_len", "q_heads", "kv_heads", "qk_head_dim", "v_head_dim", ...},
//               {"op": "hbm_read" | "hbm_write" | "hbm_copy", "bytes", "seconds"}, ...]}
// FLOPs and bytes of each point are recomputed from its shape (models/ops/op.h) so that fitting and
// prediction count the same way; the file's own figures are kept for reading by people.
#pragma once

#include <string>

#include "calibrate/measurement.h"

namespace rlsim {

MeasurementSet import_rlsim_json(const std::string& path);
/// The same from text in memory; `file` names it in messages.
MeasurementSet import_rlsim_json_text(const std::string& text, const std::string& file);

}  // namespace rlsim
