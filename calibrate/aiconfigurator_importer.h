// Importer for the inference engines' own all-reduce timings that NVIDIA's aiconfigurator measured
// (Apache-2.0; data/measured/README.md): `custom_allreduce_perf` tables converted to CSV, one row per
// (engine, group size, message size, launch mode). The file is told from its header; `framework`
// names the engine (vLLM, SGLang, TRTLLM: rlsim's presets vllm-v1, sglang, trtllm), `kernel_source`
// how it ran (`*_eager`: launched eagerly; otherwise replayed in a CUDA graph), `message_size` is in
// elements of `allreduce_dtype` and `latency` in milliseconds. Measurements come out in bytes and s.
#pragma once

#include <string>

#include "calibrate/csv_table.h"
#include "calibrate/measurement.h"

namespace rlsim {

/// True when `table` has aiconfigurator's all-reduce header.
bool is_aiconfigurator_allreduce(const CsvTable& table);
/// Reads one such CSV; InputError (FILE:LINE:COL) on anything unexpected.
MeasurementSet import_aiconfigurator_allreduce_table(const CsvTable& table);

}  // namespace rlsim
