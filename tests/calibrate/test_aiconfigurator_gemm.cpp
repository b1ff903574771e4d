// aiconfigurator's GEMM tables: rows become GEMM measurements of the right precision, shape and
// time, grouped by their inner dimension for held-out scoring; the table is told from an all-reduce
// table by its header; bad rows are located at FILE:LINE:COL.
#include <catch2/catch.hpp>

#include "calibrate/aiconfigurator_importer.h"
#include "calibrate/csv_table.h"

namespace rlsim {
namespace {

const std::string kHeader = "framework,version,device,op_name,kernel_source,gemm_dtype,m,n,k,latency\n";

std::string row(const std::string& dtype, int m, int n, int k, const std::string& ms) {
  return "TRTLLM,1.3.0rc10,NVIDIA B200,gemm,torch_flow," + dtype + "," + std::to_string(m) + "," +
         std::to_string(n) + "," + std::to_string(k) + "," + ms + "\n";
}

TEST_CASE("aiconfigurator GEMM rows become GEMM measurements", "[calibrate][import]") {
  const CsvTable table =
      CsvTable::parse(kHeader + row("nvfp4", 512, 8192, 8192, "0.0257") +
                          row("fp8", 64, 10240, 8192, "0.0306") + row("bfloat16", 4096, 1024, 2048, "0.0123"),
                      "gemm.csv");
  REQUIRE(is_aiconfigurator_gemm(table));
  CHECK_FALSE(is_aiconfigurator_allreduce(table));
  const MeasurementSet set = import_aiconfigurator_gemm_table(table);
  REQUIRE(set.points.size() == 3);
  CHECK(set.device == "NVIDIA B200");
  CHECK(set.points_per_file == std::vector<int>{3});
  const Measurement& fp4 = set.points[0];
  CHECK(fp4.op.op_class == OpClass::gemm);
  CHECK(fp4.op.compute == Precision::fp4);
  CHECK(fp4.op.flops == Approx(2.0 * 512 * 8192 * 8192));
  CHECK(fp4.seconds == Approx(25.7e-6));
  CHECK(fp4.source == "gemm.csv:2");
  CHECK(fp4.group == "k=8192");
  CHECK(set.points[1].op.compute == Precision::fp8);
  CHECK(set.points[2].op.compute == Precision::bf16);
  CHECK(set.points[2].group == "k=2048");
  // An all-reduce table is not mistaken for a GEMM table.
  const CsvTable allreduce = CsvTable::parse(
      "framework,version,device,op_name,kernel_source,allreduce_dtype,num_gpus,message_size,latency\n"
      "vLLM,0.19.0,NVIDIA H100 80GB HBM3,all_reduce,vLLM_custom_graph,bfloat16,4,8192,0.00486\n",
      "ar.csv");
  CHECK_FALSE(is_aiconfigurator_gemm(allreduce));
}

TEST_CASE("bad aiconfigurator GEMM rows are located at FILE:LINE:COL", "[calibrate][import]") {
  auto import = [](const std::string& rows) {
    return import_aiconfigurator_gemm_table(CsvTable::parse(kHeader + rows, "gemm.csv"));
  };
  // fp8_block (DeepGEMM's 128-block scaling) is not the fp8 GEMM rlsim prices: refused, not mixed in.
  CHECK_THROWS_WITH(import(row("fp8", 64, 1024, 1024, "0.01") + row("fp8_block", 64, 1024, 1024, "0.01")),
                    Catch::Contains("gemm.csv:3:") && Catch::Contains("unknown gemm_dtype 'fp8_block'") &&
                        Catch::Contains("bfloat16, fp8, nvfp4"));
  CHECK_THROWS_WITH(import(row("fp8", 64, 1024, 1024, "0")),
                    Catch::Contains("gemm.csv:2:") && Catch::Contains("a time must be positive"));
  CHECK_THROWS_WITH(import(row("fp8", 0, 1024, 1024, "0.01")), Catch::Contains("gemm.csv:2:"));
  std::string attention = row("fp8", 64, 1024, 1024, "0.01");
  attention.replace(attention.find(",gemm,"), 6, ",context_attention,");
  CHECK_THROWS_WITH(import(attention),
                    Catch::Contains("gemm.csv:2:") && Catch::Contains("expected op_name gemm"));
}

}  // namespace
}  // namespace rlsim
