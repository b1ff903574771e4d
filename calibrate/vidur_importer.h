// Importers for the public per-op and collective timings of the vidur project (MIT licence; see
// data/measured/README.md): `mlp_<model>.csv` per-op GEMM timings by token count and
// tensor-parallel degree, and `all_reduce_*.csv` / `send_recv_*.csv` NCCL timings. The file kind is
// told from its header. Times in the files are milliseconds; measurements come out in seconds.
#pragma once

#include <string>

#include "calibrate/csv_table.h"
#include "calibrate/measurement.h"

namespace rlsim {

/// Reads one vidur CSV of either kind; InputError (FILE:LINE:COL) on anything unexpected.
MeasurementSet import_vidur_csv(const std::string& path);
/// The same for a table already parsed (tests).
MeasurementSet import_vidur_table(const CsvTable& table);

/// The GEMMs of one vidur `mlp_*.csv` row, with tensor-parallel splits applied: column-parallel
/// ops (fused QKV, fused gate+up) split N by TP, row-parallel ops (output, down) split K by TP.
struct VidurLayerShape {
  long long heads = 0, kv_heads = 0, hidden = 0, ffn = 0, tokens = 0, tp = 1;
  bool gated = true;
};
/// {op name, m, n, k} for attn_pre_proj, attn_post_proj, mlp_up_proj, mlp_down_proj.
struct VidurGemm {
  std::string op;
  long long m = 0, n = 0, k = 0;
};
std::vector<VidurGemm> vidur_layer_gemms(const VidurLayerShape& shape);

}  // namespace rlsim
