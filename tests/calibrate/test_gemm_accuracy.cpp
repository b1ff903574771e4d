// The accuracy the calibration promises, on real GEMM timings (vidur: H100 from tests/data/vidur,
// A100 from data/measured). In-shape: a measured shape priced from its table with every other token
// count withheld stays within 4% (the measurements' own jitter floor is 2.2-3.2%). Cross-shape: the
// fitted model, fitted on one Llama-2 size and checked on the other, stays within 8% over both
// directions, beats the uncalibrated datasheet roofline and a plain roofline with one fitted
// efficiency and a fixed overhead, and holds the per-direction figures of calibrate/README.md.
// Every figure is printed so the tables can be checked; nothing here asserts that a reference is
// bad, so a better reference never fails a test, only a worse profile does.
#include <catch2/catch.hpp>
#include <cstdio>

#include "calibrate/device_facts.h"
#include "calibrate/fit_error.h"
#include "calibrate/kernel_fitter.h"
#include "calibrate/shape_tables.h"
#include "tests/calibrate/calibrate_test_support.h"

namespace rlsim {
namespace {

// What the profile must beat its references by, in MAPE over GEMMs with >= 64 tokens. The tables
// show 1.7-3.3 points over the one-efficiency roofline and a fifth or less of the datasheet's.
constexpr double kMarginOverBaseline = 0.015;
constexpr double kShareOfDatasheet = 0.25;
// Slack over the tables' profile figures: the optimiser moves them by about 0.3 point between
// changes that should not matter (calibrate/README.md).
constexpr double kRegressionSlack = 0.005;

struct CrossModelScores {
  RelativeErrors profile, baseline, datasheet, jitter_floor, in_sample, free_curves;
};

CrossModelScores cross_model(const HardwareSpec& card, const MeasurementSet& fitted_on,
                             const MeasurementSet& checked_on, const std::string& direction) {
  const DeviceFacts facts = known_device_facts(card.name).value();
  const auto& fit_points = fitted_on.points;
  const auto& check_points = checked_on.points;
  const KernelFit fit = fit_kernel(fit_points, card, facts.sm_count, facts.l2_bytes);
  const BaselineRoofline baseline = fit_baseline_roofline(fit_points, card);
  auto at_least_64_tokens = [](const Measurement& m) { return m.op.gemm.m >= 64; };
  auto scored_by = [&](const KernelFit& kernels) {
    return score_points(
        check_points,
        [&](const Op& op) { return kernel_seconds(kernels, op, card, facts.sm_count, facts.l2_bytes); },
        at_least_64_tokens);
  };
  CrossModelScores s;
  s.profile = scored_by(fit);
  s.baseline = score_points(
      check_points, [&](const Op& op) { return baseline_roofline_seconds(baseline, op, card); },
      at_least_64_tokens);
  s.datasheet = score_points(
      check_points, [&](const Op& op) { return datasheet_roofline_seconds(op, card); }, at_least_64_tokens);
  s.jitter_floor = neighbour_interpolation_errors(check_points, at_least_64_tokens);
  s.free_curves = per_series_curve_errors(check_points, at_least_64_tokens);
  // The same model fitted on the checked points themselves: what its form can reach on that data.
  s.in_sample = scored_by(fit_kernel(check_points, card, facts.sm_count, facts.l2_bytes));
  std::printf(
      "%s GEMMs, Llama-2-%s (>= 64 tokens, %d points): profile MAPE %.2f%% (max %.1f%%), plain roofline + "
      "fitted "
      "efficiency %.2f%% (max %.1f%%), datasheet roofline %.1f%%; fitted on the checked model itself %.2f%%; "
      "a free "
      "smooth curve per checked shape %.2f%%; jitter floor of the checked data %.2f%%\n",
      card.name.c_str(), direction.c_str(), s.profile.points, 100 * s.profile.mape, 100 * s.profile.max_error,
      100 * s.baseline.mape, 100 * s.baseline.max_error, 100 * s.datasheet.mape, 100 * s.in_sample.mape,
      100 * s.free_curves.mape, 100 * s.jitter_floor.mape);
  return s;
}

// The cross-shape figures of one direction must beat both references by the stated margins and be
// no worse than the README's per-direction figure (`table_mape`). cuBLAS switches kernels at steps
// in the token count that no model smooth in M follows (a free smooth curve per checked shape still
// misses 5.3-6.3% on H100), so a shape the user will run is measured and priced from its table,
// gated below; the fitted model answers only for shapes nobody measured.
void check_promise(const CrossModelScores& s, double table_mape) {
  REQUIRE(s.profile.points > 3000);
  CHECK(s.profile.mape < s.baseline.mape - kMarginOverBaseline);
  CHECK(s.profile.mape < kShareOfDatasheet * s.datasheet.mape);
  CHECK(s.profile.mape <= table_mape + kRegressionSlack);
}

// The issue-17 targets: in-shape held-out MAPE <= 4% and cross-shape <= 8% (both directions pooled),
// GEMMs with >= 64 tokens, as `rlsim calibrate` stores them in a profile.
constexpr double kInShapeTarget = 0.04;
constexpr double kCrossShapeTarget = 0.08;

void check_targets(const HardwareSpec& card, const MeasurementSet& small, const MeasurementSet& large) {
  std::vector<Measurement> all = small.points;
  all.insert(all.end(), large.points.begin(), large.points.end());
  auto at_least_64_tokens = [](const Measurement& m) { return m.op.gemm.m >= 64; };
  const RelativeErrors in_shape = in_shape_held_out_errors(all, at_least_64_tokens);
  const RelativeErrors in_shape_all = in_shape_held_out_errors(all);
  const RelativeErrors floor = neighbour_interpolation_errors(all, at_least_64_tokens);
  const CrossModelScores to_large = cross_model(card, small, large, "7b -> 70b");
  const CrossModelScores to_small = cross_model(card, large, small, "70b -> 7b");
  const int cross_points = to_large.profile.points + to_small.profile.points;
  const double cross_mape =
      (to_large.profile.mape * to_large.profile.points + to_small.profile.mape * to_small.profile.points) /
      cross_points;
  std::printf(
      "%s GEMMs, Llama-2-7B and 70B (>= 64 tokens): in-shape held-out MAPE %.2f%% (max %.1f%%, %d points; "
      "all "
      "token counts %.2f%%), cross-shape %.2f%% (%d points), jitter floor %.2f%%\n",
      card.name.c_str(), 100 * in_shape.mape, 100 * in_shape.max_error, in_shape.points,
      100 * in_shape_all.mape, 100 * cross_mape, cross_points, 100 * floor.mape);
  REQUIRE(in_shape.points > 3000);
  CHECK(in_shape.mape <= kInShapeTarget);
  CHECK(in_shape_all.mape <= kInShapeTarget);
  CHECK(cross_mape <= kCrossShapeTarget);
}

TEST_CASE("H100: measured shapes price withheld token counts within 4% and other models' shapes within 8%",
          "[calibrate][accuracy]") {
  check_targets(test::h100(), test::llama2_h100("7b"), test::llama2_h100("70b"));
}

TEST_CASE("A100: measured shapes price withheld token counts within 4% and other models' shapes within 8%",
          "[calibrate][accuracy]") {
  check_targets(test::a100(), test::llama2_a100("7b"), test::llama2_a100("70b"));
}

TEST_CASE("H100: a profile fitted on Llama-2-7B GEMMs predicts 70B's within the README's 8.5%",
          "[calibrate][accuracy]") {
  check_promise(cross_model(test::h100(), test::llama2_h100("7b"), test::llama2_h100("70b"), "7b -> 70b"),
                0.085);
}

TEST_CASE("H100: a profile fitted on Llama-2-70B GEMMs predicts 7B's within the README's 7.0%",
          "[calibrate][accuracy]") {
  check_promise(cross_model(test::h100(), test::llama2_h100("70b"), test::llama2_h100("7b"), "70b -> 7b"),
                0.070);
}

TEST_CASE("A100: a profile fitted on Llama-2-7B GEMMs predicts 70B's within the README's 5.7%",
          "[calibrate][accuracy]") {
  check_promise(cross_model(test::a100(), test::llama2_a100("7b"), test::llama2_a100("70b"), "7b -> 70b"),
                0.057);
}

TEST_CASE("A100: a profile fitted on Llama-2-70B GEMMs predicts 7B's within the README's 7.2%",
          "[calibrate][accuracy]") {
  check_promise(cross_model(test::a100(), test::llama2_a100("70b"), test::llama2_a100("7b"), "70b -> 7b"),
                0.072);
}

}  // namespace
}  // namespace rlsim
