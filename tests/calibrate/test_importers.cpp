// Importers: vidur per-op GEMM rows become the right GEMM shapes (TP splits included), collective
// rows become collectives, a published GEMM throughput table becomes timed GEMMs, and bad input is an
// InputError that says FILE:LINE:COL.
#include <catch2/catch.hpp>

#include "calibrate/csv_table.h"
#include "calibrate/engine_gap_fitter.h"
#include "calibrate/gemm_table_importer.h"
#include "calibrate/rlsim_json_importer.h"
#include "calibrate/vidur_importer.h"
#include "tests/calibrate/calibrate_test_support.h"

namespace rlsim {
namespace {

const Measurement* find(const MeasurementSet& set, const std::string& op, int64_t m, int64_t n, int64_t k) {
  for (const auto& p : set.points) {
    if (p.op.name == op && p.op.gemm.m == m && p.op.gemm.n == n && p.op.gemm.k == k) return &p;
  }
  return nullptr;
}

TEST_CASE("vidur GEMM rows map to GEMM shapes with tensor-parallel splits", "[calibrate][import]") {
  const MeasurementSet seven = test::llama2_h100("7b");
  REQUIRE(seven.points.size() == 4 * 1044);
  // The README's example: Llama-2-7B mlp_up_proj, 4096 tokens, TP 1: M=4096, N=2*11008, K=4096, 0.987 ms.
  const Measurement* up = find(seven, "mlp_up_proj", 4096, 22016, 4096);
  REQUIRE(up != nullptr);
  CHECK(up->seconds == Approx(0.987e-3));
  CHECK(up->op.flops / up->seconds == Approx(749e12).epsilon(0.01));
  CHECK(find(seven, "mlp_down_proj", 4096, 4096, 11008 / 4) != nullptr);  // row-parallel: K split
  CHECK(find(seven, "attn_post_proj", 8, 4096, 4096 / 8) != nullptr);
  const MeasurementSet seventy = test::llama2_h100("70b");
  // GQA: 64 query heads + 2 × 8 KV heads of 128; at TP 8 each rank keeps 8 + 2 × 1 heads.
  CHECK(find(seventy, "attn_pre_proj", 128, (64 + 16) * 128, 8192) != nullptr);
  CHECK(find(seventy, "attn_pre_proj", 128, (8 + 2) * 128, 8192) != nullptr);
  CHECK(seventy.points.front().group == "Llama-2-70b-hf");
}

TEST_CASE("vidur collective rows become all-reduce measurements", "[calibrate][import]") {
  const MeasurementSet set = import_vidur_csv(test::vidur_file("h100_all_reduce_dgx.csv"));
  REQUIRE(!set.collectives.empty());
  CHECK(set.points.empty());
  CHECK(set.collectives.front().collective == Collective::all_reduce);
  CHECK(set.collectives.front().bytes == 2048);
  CHECK(set.collectives.front().gpus == 8);
}

TEST_CASE("bad vidur input is located at FILE:LINE:COL", "[calibrate][import]") {
  const std::string header =
      "time_stats.attn_pre_proj.median,time_stats.attn_post_proj.median,time_stats.mlp_up_proj.median,"
      "time_stats.mlp_down_proj.median,n_head,n_kv_head,n_embd,n_expanded_embd,use_gated_mlp,num_tokens,"
      "num_tensor_parallel_workers\n";
  const std::string good = "0.5,0.2,0.9,0.4,32,32,4096,11008,True,4096,1\n";
  REQUIRE(import_vidur_table(CsvTable::parse(header + good, "t.csv")).points.size() == 4);
  try {
    import_vidur_table(
        CsvTable::parse(header + good + "0.5,oops,0.9,0.4,32,32,4096,11008,True,4096,1\n", "t.csv"));
    FAIL("a non-number was accepted");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) ==
          "t.csv:3:5: error: 'time_stats.attn_post_proj.median' must be a number, found 'oops'");
  }
  CHECK_THROWS_WITH(
      import_vidur_table(CsvTable::parse(header + "0.5,0.2,0.9,0.4,32,32,4096,11008,True,4096,3\n", "t.csv")),
      Catch::Contains("t.csv:2:") && Catch::Contains("divide by the tensor-parallel degree"));
  CHECK_THROWS_WITH(import_vidur_table(CsvTable::parse("a,b\n1,2\n", "x.csv")),
                    Catch::Contains("x.csv:1:1: error: not a vidur"));
  CHECK_THROWS_WITH(CsvTable::parse(header + "1,2\n", "t.csv"),
                    Catch::Contains("t.csv:2:1: error: row has 2 cells"));
  CHECK_THROWS_WITH(import_vidur_csv("/nonexistent/file.csv"), Catch::Contains("no such file"));
}

TEST_CASE("our measurements JSON is read with shapes, device facts and located errors",
          "[calibrate][import]") {
  const std::string text = R"({
  "format": "rlsim-measurements", "version": 1, "date": "2025-06-01",
  "device": {"name": "NVIDIA H200", "sm_count": 132, "l2_bytes": 52428800},
  "points": [
    {"op": "gemm", "name": "x", "model": "llama-3-8b", "dtype": "fp8", "m": 64, "n": 4096, "k": 4096, "seconds": 2e-5},
    {"op": "attention_decode", "dtype": "bf16", "kv_dtype": "fp8", "batch": 8, "q_len": 1, "kv_len": 4096,
     "q_heads": 32, "kv_heads": 8, "qk_head_dim": 128, "v_head_dim": 128, "seconds": 3e-5},
    {"op": "hbm_read", "bytes": 536870912, "seconds": 1.7e-4}
  ]
})";
  const MeasurementSet set = import_rlsim_json_text(text, "m.json");
  CHECK(set.device == "NVIDIA H200");
  CHECK(set.sm_count == 132);
  CHECK(set.l2_bytes == 52428800);
  CHECK(set.date == "2025-06-01");
  REQUIRE(set.points.size() == 3);
  CHECK(set.points[0].op.compute == Precision::fp8);
  CHECK(set.points[0].group == "llama-3-8b");
  CHECK(set.points[1].op.kv == Precision::fp8);
  CHECK(set.points[1].op.bytes == Approx(8.0 * 4096 * 8 * 256 + 8.0 * 32 * 256 * 2));
  CHECK(set.points[2].op.op_class == OpClass::memory_bound);

  std::string missing = text;
  missing.replace(missing.find(", \"seconds\": 3e-5"), 17, "");
  CHECK_THROWS_WITH(import_rlsim_json_text(missing, "m.json"),
                    Catch::StartsWith("m.json:6:5: error: missing field 'seconds'"));
  std::string bad_op = text;
  bad_op.replace(bad_op.find("\"hbm_read\""), 10, "\"hbm_reed\"");
  CHECK_THROWS_WITH(import_rlsim_json_text(bad_op, "m.json"),
                    Catch::StartsWith("m.json:8:12: error: unknown op 'hbm_reed'"));
  CHECK_THROWS_WITH(import_rlsim_json_text("{\"format\": ", "m.json"),
                    Catch::StartsWith("m.json:1:") && Catch::Contains("not valid JSON"));
  CHECK_THROWS_WITH(import_rlsim_json_text("{\"format\": \"other\"}", "m.json"),
                    Catch::Contains("not an rlsim measurements file"));
}

TEST_CASE("the suite's overhead records become the engine gaps: decode-layer medians",
          "[calibrate][import]") {
  auto layer = [](const char* phase, const char* launch, double seconds, double kernels) {
    return std::string("{\"op\": \"decoder_layer\", \"name\": \"l\", \"dtype\": \"bf16\", \"launch\": \"") +
           launch + "\", \"phase\": \"" + phase +
           "\", \"tokens\": 8, \"kernel_sum_seconds\": " + std::to_string(kernels) +
           ", \"seconds\": " + std::to_string(seconds) + "}";
  };
  const std::string text =
      "{\"format\": \"rlsim-measurements\", \"version\": 1, \"device\": {\"name\": \"X\", \"sm_count\": "
      "132},\n"
      "\"points\": [\n" +
      layer("decode", "stream", 0.000130, 0.000100) + ",\n" + layer("decode", "stream", 0.000150, 0.000100) +
      ",\n" + layer("decode", "stream", 0.000210, 0.000100) + ",\n" +
      layer("decode", "graph", 0.000090, 0.000100) + ",\n" + layer("prefill", "stream", 0.002004, 0.002000) +
      ",\n" +
      "{\"op\": \"launch_latency\", \"name\": \"e\", \"dtype\": \"bf16\", \"launch\": \"stream\", "
      "\"seconds\": "
      "0.0000025}\n]}\n";
  const MeasurementSet set = import_rlsim_json_text(text, "o.json");
  CHECK(set.points.empty());
  REQUIRE(set.engine_overheads.size() == 6);
  CHECK(set.engine_overheads[0].source == "o.json:3");
  const auto gaps = fit_engine_gaps(set);
  REQUIRE(gaps);
  CHECK(gaps->launch_gap_per_layer_s == Approx(50e-6));  // median of 30, 50 and 110 us
  CHECK(gaps->graph_gap_per_layer_s == 0.0);             // faster than its kernels alone: no gap
  CHECK(gaps->prefill_launch_gap_per_layer_s == Approx(4e-6));
  CHECK(gaps->kernel_launch_s == Approx(2.5e-6));
  CHECK(gaps->decode_layers == 1);
  // Without graph-replayed decode layers there is nothing to write.
  MeasurementSet eager_only = set;
  eager_only.engine_overheads.erase(eager_only.engine_overheads.begin() + 3);
  CHECK_FALSE(fit_engine_gaps(eager_only));
  std::string bad = text;
  bad.replace(bad.find("\"graph\""), 7, "\"graf\"");
  CHECK_THROWS_WITH(import_rlsim_json_text(bad, "o.json"),
                    Catch::StartsWith("o.json:6:") && Catch::Contains("unknown launch 'graf'"));
}

}  // namespace
TEST_CASE("a published GEMM throughput table becomes timed GEMMs grouped by table", "[calibrate][import]") {
  const MeasurementSet set = import_gemm_table_csv(std::string(RLSIM_TEST_SOURCE_DIR) +
                                                   "/data/measured/kernels/deepgemm-h800-fp8.csv");
  REQUIRE(set.points.size() == 28);
  REQUIRE(set.files.size() == 1);
  CHECK(set.points_per_file == std::vector<int>{28});
  // First row: dense, M 64, N 2112, K 7168 at 206 TFLOPS.
  const Measurement& first = set.points.front();
  CHECK(first.group == "dense");
  CHECK(first.op.op_class == OpClass::gemm);
  CHECK(first.op.compute == Precision::fp8);
  CHECK(first.seconds == Approx(2.0 * 64 * 2112 * 7168 / 206e12));
  CHECK(first.source.find("deepgemm-h800-fp8.csv:2") != std::string::npos);
  // The grouped tables: #Groups GEMMs of M per group rows each.
  const Measurement& grouped = set.points[18];
  CHECK(grouped.group == "moe-contiguous");
  CHECK(grouped.op.op_class == OpClass::grouped_gemm);
  CHECK(grouped.op.gemm.groups == 4);
  CHECK(grouped.op.gemm.m == 8192);
  CHECK(grouped.seconds == Approx(2.0 * 4 * 8192 * 4096 * 7168 / 1346e12));
}

TEST_CASE("bad GEMM table rows are located at FILE:LINE:COL", "[calibrate][import]") {
  const std::string header = "group,groups,m,n,k,dtype,tflops\n";
  auto error_of = [&](const std::string& row) {
    try {
      import_gemm_table(CsvTable::parse(header + row, "t.csv"));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  REQUIRE(
      import_gemm_table(CsvTable::parse(header + "dense,1,64,2112,7168,fp8,206\n", "t.csv")).points.size() ==
      1);
  CHECK_THAT(error_of("dense,1,64,2112,7168,fp9,206\n"),
             Catch::Contains("t.csv:2:22:") && Catch::Contains("fp9"));
  CHECK_THAT(error_of("dense,1,64,2112,7168,fp8,0\n"),
             Catch::Contains("t.csv:2:26:") && Catch::Contains("positive"));
  CHECK_THAT(error_of("dense,0,64,2112,7168,fp8,206\n"), Catch::Contains("t.csv:2:7:"));
  CHECK_THAT(error_of(",1,64,2112,7168,fp8,206\n"),
             Catch::Contains("t.csv:2:1:") && Catch::Contains("group"));
  try {
    import_gemm_table(CsvTable::parse("group,groups,m,n,k,dtype,seconds\ndense,1,1,1,1,fp8,1\n", "t.csv"));
    FAIL("a table without tflops was accepted");
  } catch (const InputError& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("t.csv:1:") && Catch::Contains("tflops"));
  }
}

}  // namespace rlsim
