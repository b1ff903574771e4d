// Importer for GEMM throughput tables as kernel libraries and papers publish them: one row per
// shape with its achieved TFLOPS (e.g. DeepGEMM's README tables, data/measured/kernels/). Columns,
// exactly: group,groups,m,n,k,dtype,tflops — `group` names the table a row belongs to (fits are
// scored leaving one group out), `groups` the independent GEMMs of a grouped (MoE) row (1: a dense
// GEMM), m the rows of each, dtype a precision (bf16, fp8, …). A row's time is its FLOPs
// (2·groups·m·n·k) over its throughput.
#pragma once

#include <string>

#include "calibrate/csv_table.h"
#include "calibrate/measurement.h"

namespace rlsim {

/// Reads one table; InputError (FILE:LINE:COL) on anything unexpected.
MeasurementSet import_gemm_table_csv(const std::string& path);
/// The same for a table already parsed (tests).
MeasurementSet import_gemm_table(const CsvTable& table);

}  // namespace rlsim
