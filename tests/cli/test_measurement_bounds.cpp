// Measurements faster than their card's peak are refused with FILE:LINE and the bound, and every
// measurement shipped in data/measured is within its card's.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "calibrate/aiconfigurator_importer.h"
#include "calibrate/gemm_table_importer.h"
#include "calibrate/measurement_bounds.h"
#include "calibrate/vidur_importer.h"
#include "models/input_error.h"
#include "sim/scenario/catalog.h"
#include "tests/cli/cli_support.h"

using namespace rlsim;

namespace {

MeasurementSet read_shipped(const std::string& file) {
  const std::string path = std::string(RLSIM_TEST_SOURCE_DIR) + "/data/measured/" + file;
  if (file.rfind("kernels/", 0) == 0) return import_gemm_table_csv(path);
  const CsvTable table = CsvTable::read(path);
  return is_aiconfigurator_gemm(table) ? import_aiconfigurator_gemm_table(table) : import_vidur_table(table);
}

}  // namespace

TEST_CASE("a GEMM timed faster than its card's peak is refused at its row with the bound") {
  const auto dir = test::scratch_dir("measurement-bounds");
  const auto csv = dir / "fast.csv";
  std::ofstream(csv) << "group,groups,m,n,k,dtype,tflops\ndense,1,64,2112,7168,fp8,1500\n"
                     << "dense,1,64,2112,7168,fp8,2.06e+10\n";
  const Catalog catalog = load_builtin_catalog(RLSIM_TEST_SOURCE_DIR);
  const MeasurementSet set = import_gemm_table_csv(csv.string());
  try {
    check_measurements_within_peak(set, catalog.hardware.at("H800"));
    FAIL("expected an input error");
  } catch (const InputError& e) {
    CHECK_THAT(e.what(), Catch::Contains("fast.csv:3") && Catch::Contains("dense fp8 peak 1979 TFLOP/s") &&
                             Catch::Contains("2.06e+10 TFLOP/s"));
  }
  // Through the command: exit 2, no profile written.
  const auto r = test::run_rlsim("calibrate --format gemm-table --hardware H800 --input '" + csv.string() +
                                 "' --out '" + (dir / "p.yaml").string() + "'");
  CHECK(r.exit_code == 2);
  CHECK_FALSE(std::filesystem::exists(dir / "p.yaml"));
}

TEST_CASE("every shipped GEMM measurement is within its card's peak") {
  const Catalog catalog = load_builtin_catalog(RLSIM_TEST_SOURCE_DIR);
  const std::pair<const char*, const char*> files[] = {
      {"aiconfigurator-b200/gemm_perf_trtllm-1.3.0rc10.csv", "B200"},
      {"aiconfigurator-h100/gemm_perf_sglang-0.5.14.csv", "H100"},
      {"aiconfigurator-h100/gemm_perf_trtllm-1.3.0rc10.csv", "H100"},
      {"aiconfigurator-h100/gemm_perf_vllm-0.19.0.csv", "H100"},
      {"aiconfigurator-h200/gemm_perf_trtllm-1.3.0rc10.csv", "H200"},
      {"aiconfigurator-rtxpro6000/gemm_perf_trtllm-1.3.0rc10.csv", "RTXPRO6000"},
      {"vidur-a100/mlp_Llama-2-7b-hf.csv", "A100"},
      {"vidur-h100/mlp_Llama-2-70b-hf.csv", "H100"},
      {"kernels/deepgemm-h800-fp8.csv", "H800"},
      {"kernels/b200-fp4-gemm.csv", "B200"}};
  for (const auto& [file, card] : files) {
    INFO(file);
    const MeasurementSet set = read_shipped(file);
    CHECK_FALSE(set.points.empty());
    CHECK_NOTHROW(check_measurements_within_peak(set, catalog.hardware.at(card)));
  }
}
