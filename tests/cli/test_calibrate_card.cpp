// tools/calibrate-card end to end without a GPU: on recorded suite output (tests/data/kernels, the
// exact layout rlsim-kernels writes; see its README for what is synthetic) it writes a profile with
// measured tables, in-shape and cross-shape errors and the engine gaps; with no GPU visible it says
// so and exits 3 before building or writing anything.
#include <catch2/catch.hpp>

#include "tests/cli/cli_support.h"

namespace rlsim {
namespace {

const std::string kRecorded = "tests/data/kernels/h100_synthetic_quick.json";

TEST_CASE("calibrate-card replays recorded suite output into a profile with tables and engine gaps",
          "[cli][calibrate]") {
  const auto dir = test::scratch_dir("calibrate-card");
  const std::string out = (dir / "h100.yaml").string();
  const auto r =
      test::run_shell("RLSIM_KERNELS_RECORDED=" + kRecorded + " RLSIM_BINARY='" + RLSIM_TEST_BINARY +
                      "' tools/calibrate-card --hardware H100 --date 2024-05-01 --out '" + out + "'");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.find("replaying recorded suite output") != std::string::npos);
  CHECK(test::slurp(dir / "h100.measurements.json") ==
        test::slurp(std::filesystem::path(RLSIM_TEST_SOURCE_DIR) / kRecorded));
  const std::string profile = test::slurp(out);
  CHECK(profile.find("device: \"SYNTHETIC H100 record") != std::string::npos);
  CHECK(profile.find("in_shape_held_out_mape:") != std::string::npos);
  CHECK(profile.find("measured_shapes:") != std::string::npos);
  // The recorded decode layers (two models, two batches) take 7 x 2.5 us more than their kernels
  // eagerly and 7 x 0.8 us more as a graph replay: the medians are those gaps.
  CHECK(profile.find("  launch_gap_per_layer_s: 1.75e-05") != std::string::npos);
  CHECK(profile.find("  graph_gap_per_layer_s: 5.6e-06") != std::string::npos);
  CHECK(r.out.find("engine gaps per decoder layer") != std::string::npos);
}

TEST_CASE("calibrate-card without a GPU exits 3 with a clear message and writes nothing",
          "[cli][calibrate]") {
  const auto dir = test::scratch_dir("calibrate-card-no-gpu");
  const auto r = test::run_shell("CUDA_VISIBLE_DEVICES= tools/calibrate-card --hardware H200 --build '" +
                                 (dir / "build").string() + "' --out '" + (dir / "h200.yaml").string() + "'");
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("no GPU found") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "h200.yaml"));
  CHECK_FALSE(std::filesystem::exists(dir / "build"));
  CHECK(test::run_shell("tools/calibrate-card --quick").exit_code == 2);  // no --hardware
}

}  // namespace
}  // namespace rlsim
