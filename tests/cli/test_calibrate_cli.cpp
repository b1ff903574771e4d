// `rlsim calibrate` and `rlsim cost` end to end: a profile fitted from the committed vidur subset,
// byte-identical on a second run, read back by the profile loader; the committed H100 profile
// answering for arbitrary shapes; bad input is exit 2 with FILE:LINE:COL and no output file.
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sim/scenario/profile_loader.h"
#include "tests/cli/cli_support.h"

namespace rlsim {
namespace {

const std::string kVidur = "tests/data/vidur/";

TEST_CASE("rlsim calibrate fits a profile with held-out errors, deterministically", "[cli][calibrate]") {
  const auto dir = test::scratch_dir("calibrate");
  const std::string args = "calibrate --hardware H100 --date 2024-05-01 --input " + kVidur +
                           "h100_mlp_Llama-2-7b-hf.csv --input " + kVidur +
                           "h100_mlp_Llama-2-70b-hf.csv --input " + kVidur + "h100_all_reduce_dgx.csv --out ";
  const auto first = test::run_rlsim(args + "'" + (dir / "a.yaml").string() + "'");
  REQUIRE(first.exit_code == 0);
  CHECK(first.out.find("gemm") != std::string::npos);
  CHECK(first.out.find("all_reduce") != std::string::npos);
  const auto second = test::run_rlsim(args + "'" + (dir / "b.yaml").string() + "'");
  REQUIRE(second.exit_code == 0);
  CHECK(test::slurp(dir / "a.yaml") == test::slurp(dir / "b.yaml"));

  const HardwareProfile p = load_profile((dir / "a.yaml").string());
  CHECK(p.card == "H100");
  CHECK(p.date == "2024-05-01");
  CHECK(p.sm_count == 132);
  REQUIRE(p.ops.size() == 1);
  CHECK(p.ops[0].error.held_out_points == 8352);  // leave one model out: every point scored unseen
  CHECK(p.ops[0].error.held_out_mape < p.ops[0].error.baseline_held_out_mape);
  // The jitter floor is read back and lies below what the fit reaches (measured 2.9% vs 7.9%).
  CHECK(p.ops[0].error.jitter_floor_mape > 0.0);
  CHECK(p.ops[0].error.jitter_floor_mape < p.ops[0].error.held_out_mape);
  CHECK(first.out.find("jitter floor") != std::string::npos);
  CHECK(p.collectives.size() == 3);
  // Every measured shape is kept as a table (2 models x 4 TP degrees x 4 projections), and its
  // in-shape error (every other token count withheld) is read back, below the cross-shape error.
  CHECK(p.measured_shapes.size() == 32);
  CHECK(p.ops[0].error.in_shape_held_out_points > 4000);
  CHECK(p.ops[0].error.in_shape_held_out_mape > 0.0);
  CHECK(p.ops[0].error.in_shape_held_out_mape < p.ops[0].error.held_out_mape);
  CHECK(first.out.find("in-shape") != std::string::npos);
}

TEST_CASE("rlsim calibrate reads a published GEMM throughput table", "[cli][calibrate]") {
  const auto dir = test::scratch_dir("calibrate-gemm-table");
  const auto result = test::run_rlsim(
      "calibrate --format gemm-table --hardware H800 --date 2025-04-09 --input "
      "data/measured/kernels/deepgemm-h800-fp8.csv --out '" +
      (dir / "h800.yaml").string() + "'");
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  const HardwareProfile p = load_profile((dir / "h800.yaml").string());
  CHECK(p.card == "H800");
  REQUIRE(p.ops.size() == 2);  // dense and grouped FP8 GEMMs
  CHECK(p.ops[0].precision == Precision::fp8);
  // Leave one table out: the dense and masked tables' 20 single GEMMs are each scored unseen.
  CHECK(p.ops[0].error.held_out_points == 20);
}

TEST_CASE("rlsim calibrate reads aiconfigurator's GEMM table by its header", "[cli][calibrate]") {
  // Four shapes of the committed B200 table (n and k of 4096 or 8192, every token count, FP4): the
  // format is told from the header, the card's SMs from the known devices, and each shape is kept.
  const auto dir = test::scratch_dir("calibrate-aiconfigurator-gemm");
  std::ifstream in(std::string(RLSIM_TEST_SOURCE_DIR) +
                   "/data/measured/aiconfigurator-b200/gemm_perf_trtllm-1.3.0rc10.csv");
  std::ofstream out(dir / "b200.csv");
  std::string line;
  std::getline(in, line);
  out << line << "\n";
  int rows = 0;
  while (std::getline(in, line)) {
    std::vector<std::string> field;  // ...,gemm_dtype,m,n,k,latency
    std::stringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');) field.push_back(cell);
    REQUIRE(field.size() == 10);
    const bool small =
        (field[7] == "4096" || field[7] == "8192") && (field[8] == "4096" || field[8] == "8192");
    if (field[5] == "nvfp4" && small) {
      out << line << "\n";
      ++rows;
    }
  }
  out.close();
  REQUIRE(rows > 200);
  const auto result = test::run_rlsim("calibrate --hardware B200 --input '" + (dir / "b200.csv").string() +
                                      "' --out '" + (dir / "b200.yaml").string() + "'");
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  const HardwareProfile p = load_profile((dir / "b200.yaml").string());
  CHECK(p.card == "B200");
  CHECK(p.device == "NVIDIA B200");
  CHECK(p.sm_count == 148);
  REQUIRE(p.ops.size() == 1);
  CHECK(p.ops[0].precision == Precision::fp4);
  CHECK(p.ops[0].error.held_out_points == rows);  // leave one k out: every point scored unseen
  CHECK(p.measured_shapes.size() == 4);

  // A card whose catalog name is the device's words run together: the RTX PRO 6000's table is one.
  std::string table = test::slurp(dir / "b200.csv");
  for (size_t at = table.find("NVIDIA B200"); at != std::string::npos; at = table.find("NVIDIA B200", at))
    table.replace(at, 11, "NVIDIA RTX PRO 6000 Blackwell Server Edition");
  std::ofstream(dir / "rtx.csv") << table;
  const std::string rtx =
      " --input '" + (dir / "rtx.csv").string() + "' --out '" + (dir / "rtx.yaml").string() + "'";
  // The device's words match the card (else "measured on" would refuse it first); B200's FP4
  // times are then past this card's peak, which the bound refuses.
  const auto relabelled = test::run_rlsim("calibrate --hardware RTXPRO6000" + rtx);
  CHECK(relabelled.exit_code == 2);
  CHECK_THAT(relabelled.err, Catch::Contains("RTXPRO6000's dense fp4 peak"));
  const auto wrong = test::run_rlsim("calibrate --hardware B200" + rtx);
  CHECK(wrong.exit_code == 2);
  CHECK(wrong.err.find("taken on 'NVIDIA RTX PRO 6000 Blackwell Server Edition', not on B200") !=
        std::string::npos);
}

TEST_CASE("the committed B200 profile prices TensorRT-LLM's measured FP4 GEMMs", "[cli][cost]") {
  // Llama-3-70B's output projection at 512 tokens: TensorRT-LLM 1.3.0rc10's NVFP4 linear layer,
  // 25.73 us as measured (the committed table's row), where the datasheet roofline says 15.9 us.
  auto gemm = [](const std::string& profile) {
    const auto r = test::run_rlsim("cost gemm --hardware B200 " + profile +
                                   " --m 512 --n 8192 --k 8192 --dtype fp4 --json");
    REQUIRE(r.exit_code == 0);
    return nlohmann::json::parse(r.out);
  };
  const auto measured = gemm("--profile calibrate/profiles/b200-trtllm.yaml");
  CHECK(measured.at("price_source") == "measured");
  CHECK(measured.at("seconds").get<double>() == Approx(25.72666605313619e-6).epsilon(1e-5));
  CHECK(gemm("").at("seconds").get<double>() < 0.7 * measured.at("seconds").get<double>());
}

TEST_CASE("rlsim cost answers for any shape from the committed H100 profile", "[cli][cost]") {
  double previous = 0.0;
  for (const char* m : {"1", "77", "4096", "100000"}) {
    const auto r =
        test::run_rlsim(std::string("cost gemm --hardware H100 --profile calibrate/profiles/h100.yaml --m ") +
                        m + " --n 12345 --k 6789 --json");
    REQUIRE(r.exit_code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j.at("calibrated").get<bool>());
    CHECK(j.at("cost_model") == "profile");
    const double s = j.at("seconds").get<double>();
    CHECK(s > previous);
    previous = s;
  }
  // The README example: Llama-2-7B fused gate+up at 4096 tokens measured 0.987 ms on an H100.
  const auto up = test::run_rlsim(
      "cost gemm --hardware H100 --profile calibrate/profiles/h100.yaml --m 4096 --n 22016 --k 4096 --json");
  REQUIRE(up.exit_code == 0);
  CHECK(nlohmann::json::parse(up.out).at("seconds").get<double>() == Approx(0.987e-3).epsilon(0.1));
  const auto plain = test::run_rlsim("cost gemm --hardware H100 --m 4096 --n 22016 --k 4096");
  REQUIRE(plain.exit_code == 0);
  CHECK(plain.out.find("datasheet roofline") != std::string::npos);
  const auto decode = test::run_rlsim(
      "cost attention-decode --hardware H100 --profile calibrate/profiles/h100.yaml --batch 16 "
      "--kv-len 8192 --q-heads 32 --kv-heads 8 --kv-dtype fp8 --json");
  REQUIRE(decode.exit_code == 0);
  CHECK_FALSE(
      nlohmann::json::parse(decode.out).at("calibrated").get<bool>());  // no attention in the vidur data
  const auto ar = test::run_rlsim(
      "cost all-reduce --hardware H100 --profile calibrate/profiles/h100.yaml --bytes 64MiB --gpus 8 --json");
  REQUIRE(ar.exit_code == 0);
  // vidur measured 0.329 ms for ~63 MB on 8 GPUs.
  CHECK(nlohmann::json::parse(ar.out).at("seconds").get<double>() == Approx(0.36e-3).epsilon(0.15));
  CHECK(test::run_rlsim("cost all-reduce --hardware H100 --bytes 64MiB --gpus 8 --json").exit_code == 0);
  CHECK(test::run_rlsim("cost --help").out.find("Examples") != std::string::npos);
}

// A profile whose one measured shape (n 4096, k 4096) took about a hundred times what its GEMM fit
// says: an answer from the table cannot be mistaken for one from the fit.
const char* kFarTableProfile =
    "card: H100\nsm_count: 132\nl2_cache: 50MB\n"
    "ops:\n  - {op_class: gemm, precision: bf16, launch_overhead: 5us, compute_efficiency: 0.8, "
    "memory_efficiency: 0.9}\n"
    "measured_shapes:\n  - op_class: gemm\n    precision: bf16\n    n: 4096\n    k: 4096\n"
    "    tokens: [64, 128, 256]\n    time_us: [1000, 2000, 4000]\n";

nlohmann::json cost_json(const std::string& profile, const std::string& shape) {
  const auto r =
      test::run_rlsim("cost gemm --hardware H100 --profile '" + profile + "' " + shape + " --json");
  REQUIRE(r.exit_code == 0);
  return nlohmann::json::parse(r.out);
}

TEST_CASE("rlsim cost prices a measured shape from the profile's table and not from the fit", "[cli][cost]") {
  const auto dir = test::scratch_dir("measured-shapes");
  const std::string profile = (dir / "far.yaml").string();
  std::ofstream(profile) << kFarTableProfile;
  const auto measured = cost_json(profile, "--m 128 --n 4096 --k 4096");
  CHECK(measured.at("price_source") == "measured");
  CHECK(measured.at("seconds").get<double>() == Approx(2000e-6).epsilon(1e-12));
  const auto between = cost_json(profile, "--m 181 --n 4096 --k 4096");
  CHECK(between.at("price_source") == "interpolated");
  CHECK(between.at("seconds").get<double>() > 2000e-6);
  CHECK(between.at("seconds").get<double>() < 4000e-6);
  const auto unmeasured = cost_json(profile, "--m 128 --n 4104 --k 4096");
  CHECK(unmeasured.at("price_source") == "fitted");
  CHECK(unmeasured.at("seconds").get<double>() < 100e-6);
  // The committed H100 profile keeps vidur's tables: Llama-2-7B's fused gate+up at 4096 tokens is
  // the median of the two times vidur measured there (0.987 and 0.999 ms), and the text output says
  // where the figure came from.
  const auto up = cost_json("calibrate/profiles/h100.yaml", "--m 4096 --n 22016 --k 4096");
  CHECK(up.at("price_source") == "measured");
  CHECK(up.at("seconds").get<double>() == Approx(0.993e-3).epsilon(1e-9));
  const auto text = test::run_rlsim(
      "cost gemm --hardware H100 --profile calibrate/profiles/h100.yaml --m 4010 --n 22016 --k 4096");
  CHECK(text.out.find("measured shape, interpolated between token counts") != std::string::npos);
}

TEST_CASE("a malformed measured table is an error at its location", "[cli][cost]") {
  const auto dir = test::scratch_dir("measured-shapes-bad");
  std::string descending = kFarTableProfile;
  descending.replace(descending.find("[64, 128, 256]"), 14, "[64, 256, 128]");
  std::ofstream(dir / "descending.yaml") << descending;
  const auto r = test::run_rlsim("cost gemm --hardware H100 --profile '" +
                                 (dir / "descending.yaml").string() + "' --m 1 --n 2 --k 3");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("descending.yaml:11:") != std::string::npos);
  CHECK(r.err.find("strictly ascending") != std::string::npos);
  std::string negative = kFarTableProfile;
  negative.replace(negative.find("2000"), 4, "-2");
  std::ofstream(dir / "negative.yaml") << negative;
  const auto n = test::run_rlsim("cost gemm --hardware H100 --profile '" + (dir / "negative.yaml").string() +
                                 "' --m 1 --n 2 --k 3");
  CHECK(n.exit_code == 2);
  CHECK(n.err.find("negative.yaml:12:") != std::string::npos);
  CHECK(n.err.find("expected a positive number in 'time_us'") != std::string::npos);
}

TEST_CASE("calibrate and cost reject bad input with a location and leave no output", "[cli][calibrate]") {
  const auto dir = test::scratch_dir("calibrate-bad");
  const auto bad_csv = dir / "bad.csv";
  {
    std::ofstream f(bad_csv);
    f << "collective,size,num_workers,devices_per_node,time_stats.all_reduce.median\n"
      << "all_reduce,2048,8,8,0.03\nall_reduce,big,8,8,0.03\n";
  }
  const auto out = dir / "p.yaml";
  const auto r = test::run_rlsim("calibrate --hardware H100 --input '" + bad_csv.string() + "' --out '" +
                                 out.string() + "'");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find(bad_csv.string() + ":3:12: error: 'size' must be a whole number") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(out));
  const auto unknown = test::run_rlsim("calibrate --hardware H999 --input '" + bad_csv.string() +
                                       "' --out '" + out.string() + "'");
  CHECK(unknown.exit_code == 2);
  const auto mismatch =
      test::run_rlsim("cost gemm --hardware A100 --profile calibrate/profiles/h100.yaml --m 1 --n 2 --k 3");
  CHECK(mismatch.exit_code == 2);
  CHECK(mismatch.err.find("fitted for H100") != std::string::npos);
  std::ofstream(dir / "typo.yaml") << "card: H100\nsm_count: 132\nsm_cout: 1\n";
  const auto typo = test::run_rlsim("cost gemm --hardware H100 --profile '" + (dir / "typo.yaml").string() +
                                    "' --m 1 --n 2 --k 3");
  CHECK(typo.exit_code == 2);
  CHECK(typo.err.find("typo.yaml:3:1: error:") != std::string::npos);
}

}  // namespace
}  // namespace rlsim
