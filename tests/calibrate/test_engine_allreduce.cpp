// The inference engines' own all-reduces: aiconfigurator's rows become measurements of the right
// engine preset, size in bytes and launch mode, bad rows are located at FILE:LINE:COL, and the
// tables keep each size's median and score each inner size from its neighbours.
#include <catch2/catch.hpp>

#include "calibrate/aiconfigurator_importer.h"
#include "calibrate/csv_table.h"
#include "calibrate/engine_allreduce_fitter.h"
#include "calibrate/profile_fitter.h"
#include "calibrate/profile_writer.h"
#include "tests/calibrate/calibrate_test_support.h"

namespace rlsim {
namespace {

const std::string kHeader =
    "framework,version,device,op_name,kernel_source,allreduce_dtype,num_gpus,message_size,latency,backend\n";

std::string row(const std::string& framework, const std::string& source, int gpus, long long elements,
                const std::string& ms) {
  return framework + ",0.19.0,NVIDIA H100 80GB HBM3,all_reduce," + source + ",bfloat16," +
         std::to_string(gpus) + "," + std::to_string(elements) + "," + ms + ",x\n";
}

TEST_CASE("aiconfigurator all-reduce rows become engine all-reduce measurements", "[calibrate][import]") {
  const CsvTable table = CsvTable::parse(kHeader + row("vLLM", "vLLM_custom_graph", 4, 8192, "0.00486") +
                                             row("vLLM", "vLLM_custom_eager", 4, 8192, "0.0246") +
                                             row("SGLang", "SGLang_CustomAllReduce_graph", 2, 128, "0.0024") +
                                             row("TRTLLM", "TRTLLM", 8, 256, "0.003"),
                                         "ai.csv");
  REQUIRE(is_aiconfigurator_allreduce(table));
  const MeasurementSet set = import_aiconfigurator_allreduce_table(table);
  REQUIRE(set.engine_allreduces.size() == 4);
  CHECK(set.device == "NVIDIA H100 80GB HBM3");
  CHECK(set.points_per_file == std::vector<int>{4});
  const EngineAllReduceMeasurement& graph = set.engine_allreduces[0];
  CHECK(graph.engine == "vllm-v1");
  CHECK(graph.gpus == 4);
  CHECK(graph.cuda_graph);
  CHECK(graph.bytes == 16384.0);  // 8192 bfloat16 elements
  CHECK(graph.seconds == Approx(4.86e-6));
  CHECK(graph.source == "ai.csv:2");
  CHECK_FALSE(set.engine_allreduces[1].cuda_graph);
  CHECK(set.engine_allreduces[2].engine == "sglang");
  CHECK(set.engine_allreduces[3].engine == "trtllm");
  CHECK(set.engine_allreduces[3].cuda_graph);  // TensorRT-LLM's rows are timed in CUDA graphs
  // A vidur collective file is not mistaken for one.
  CHECK_FALSE(is_aiconfigurator_allreduce(CsvTable::read(test::vidur_file("h100_all_reduce_dgx.csv"))));
}

TEST_CASE("bad aiconfigurator rows are located at FILE:LINE:COL", "[calibrate][import]") {
  auto import = [](const std::string& rows) {
    return import_aiconfigurator_allreduce_table(CsvTable::parse(kHeader + rows, "ai.csv"));
  };
  CHECK_THROWS_WITH(import(row("TGI", "x", 4, 8192, "0.005")),
                    Catch::Contains("ai.csv:2:1: error: unknown framework 'TGI'") &&
                        Catch::Contains("SGLang, TRTLLM, vLLM"));
  CHECK_THROWS_WITH(import(row("vLLM", "x", 4, 8192, "-0.005")),
                    Catch::Contains("ai.csv:2:") && Catch::Contains("a time must be positive"));
  CHECK_THROWS_WITH(import(row("vLLM", "x", 1, 8192, "0.005")), Catch::Contains("ai.csv:2:"));
  std::string fp8 = row("vLLM", "x", 4, 8192, "0.005");
  fp8.replace(fp8.find("bfloat16"), 8, "fp8");
  CHECK_THROWS_WITH(import(fp8), Catch::Contains("unknown allreduce_dtype 'fp8'"));
  std::string gather = row("vLLM", "x", 4, 8192, "0.005");
  gather.replace(gather.find("all_reduce"), 10, "all_gather");
  CHECK_THROWS_WITH(import(gather),
                    Catch::Contains("ai.csv:2:") && Catch::Contains("expected op_name all_reduce"));
}

TEST_CASE("engine all-reduce tables keep each size's median and score inner sizes from neighbours",
          "[calibrate][fit]") {
  auto m = [](const std::string& engine, int gpus, bool graph, double bytes, double seconds) {
    return EngineAllReduceMeasurement{engine, gpus, graph, bytes, seconds, "t"};
  };
  // Out of order, a size measured three times, two engines and both launch modes.
  const std::vector<EngineAllReduceMeasurement> points{
      m("vllm-v1", 4, true, 4096, 6e-6),   m("vllm-v1", 4, true, 1024, 4e-6),
      m("vllm-v1", 4, true, 2048, 9e-6),   m("vllm-v1", 4, true, 2048, 5e-6),
      m("vllm-v1", 4, true, 2048, 5.5e-6), m("vllm-v1", 4, false, 1024, 2e-5),
      m("sglang", 4, true, 1024, 3e-6)};
  const std::vector<EngineAllReduce> tables = engine_allreduce_tables(points);
  REQUIRE(tables.size() == 3);
  CHECK(tables[0].engine == "sglang");
  CHECK(tables[1].engine == "vllm-v1");
  CHECK_FALSE(tables[1].cuda_graph);  // eager before graph
  const EngineAllReduce& graph = tables[2];
  CHECK(graph.bytes == std::vector<double>{1024, 2048, 4096});
  REQUIRE(graph.seconds.size() == 3);
  CHECK(graph.seconds[1] == Approx(5.5e-6));  // the median of 9, 5 and 5.5 µs
  // The inner size from its neighbours: 4 + (6 − 4) / 3 = 4.667 µs against 5.5 µs measured.
  CHECK(graph.error.fit_points == 3);
  CHECK(graph.error.held_out_points == 1);
  CHECK(graph.error.held_out_mape == Approx((5.5 - 4.0 - 2.0 / 3.0) / 5.5));
  CHECK(tables[0].error.held_out_points == 0);

  MeasurementSet set;
  set.engine_allreduces = points;
  const std::string yaml =
      profile_to_yaml(fit_profile(set, CalibrationSettings{test::h100(), 132, 50e6, "", ""}));
  CHECK(yaml.find("engine_allreduces:") != std::string::npos);
  CHECK(yaml.find("    launch: eager\n") != std::string::npos);
  CHECK(yaml.find("    message_bytes: [1024, 2048, 4096]\n    time_us: [4, 5.5, 6]\n") != std::string::npos);
}

}  // namespace
}  // namespace rlsim
