// Importers for tables NVIDIA's aiconfigurator measured (Apache-2.0; data/measured/README.md),
// converted from its parquet files to CSV. Each file is told from its header.
// - The inference engines' own all-reduce timings (`custom_allreduce_perf`), one row per (engine,
//   group size, message size, launch mode): `framework` names the engine (vLLM, SGLang, TRTLLM:
//   rlsim's presets vllm-v1, sglang, trtllm), `kernel_source` how it ran (`*_eager`: launched
//   eagerly; otherwise replayed in a CUDA graph), `message_size` is in elements of `allreduce_dtype`
//   and `latency` in milliseconds. Measurements come out in bytes and s.
// - An engine's GEMMs (`gemm_perf`): one row per (gemm_dtype, m, n, k), the engine's linear layer
//   (input quantisation included) replayed in a CUDA graph, `latency` in milliseconds. Each row
//   becomes a GEMM of m tokens; its group, for held-out scoring, is its K (`k=4096`), so a fit is
//   scored on inner dimensions it did not see.
#pragma once

#include <string>

#include "calibrate/csv_table.h"
#include "calibrate/measurement.h"

namespace rlsim {

/// True when `table` has aiconfigurator's all-reduce header.
bool is_aiconfigurator_allreduce(const CsvTable& table);
/// Reads one such CSV; InputError (FILE:LINE:COL) on anything unexpected.
MeasurementSet import_aiconfigurator_allreduce_table(const CsvTable& table);
/// True when `table` has aiconfigurator's GEMM header.
bool is_aiconfigurator_gemm(const CsvTable& table);
/// Reads one GEMM table (bfloat16, fp8 and nvfp4 rows); InputError (FILE:LINE:COL) on anything
/// unexpected.
MeasurementSet import_aiconfigurator_gemm_table(const CsvTable& table);

}  // namespace rlsim
