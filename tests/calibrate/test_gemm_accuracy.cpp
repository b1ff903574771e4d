// The accuracy the calibration promises, on real H100 GEMM timings (vidur, tests/data/vidur): a
// profile fitted on one Llama-2 size and checked on the other, against a plain roofline with one
// fitted efficiency and a fixed overhead. Figures are printed so the README table can be checked.
#include <catch2/catch.hpp>

#include <cstdio>

#include "calibrate/fit_error.h"
#include "calibrate/kernel_fitter.h"
#include "tests/calibrate/calibrate_test_support.h"

namespace rlsim {
namespace {

constexpr int kH100Sms = 132;
constexpr double kH100L2 = 50e6;

struct CrossModelScores {
  RelativeErrors profile, baseline, datasheet, jitter_floor, in_sample, free_curves;
};

CrossModelScores cross_model(const std::string& train, const std::string& check) {
  const HardwareSpec card = test::h100();
  const auto fit_points = test::llama2_h100(train).points;
  const auto check_points = test::llama2_h100(check).points;
  const KernelFit fit = fit_kernel(fit_points, card, kH100Sms, kH100L2);
  const BaselineRoofline baseline = fit_baseline_roofline(fit_points, card);
  auto at_least_64_tokens = [](const Measurement& m) { return m.op.gemm.m >= 64; };
  CrossModelScores s;
  s.profile = score_points(check_points, [&](const Op& op) { return kernel_seconds(fit, op, card, kH100Sms, kH100L2); },
                           at_least_64_tokens);
  s.baseline = score_points(check_points, [&](const Op& op) { return baseline_roofline_seconds(baseline, op, card); },
                            at_least_64_tokens);
  s.datasheet = score_points(check_points, [&](const Op& op) { return datasheet_roofline_seconds(op, card); },
                             at_least_64_tokens);
  s.jitter_floor = neighbour_interpolation_errors(check_points, at_least_64_tokens);
  s.free_curves = per_series_curve_errors(check_points, at_least_64_tokens);
  // The same model fitted on the checked points themselves: what its form can reach on that data.
  const KernelFit own = fit_kernel(check_points, card, kH100Sms, kH100L2);
  s.in_sample = score_points(check_points, [&](const Op& op) { return kernel_seconds(own, op, card, kH100Sms, kH100L2); },
                             at_least_64_tokens);
  std::printf("H100 GEMMs, fitted on Llama-2-%s, checked on Llama-2-%s (>= 64 tokens, %d points): profile MAPE %.2f%% "
              "(max %.1f%%), plain roofline + fitted efficiency %.2f%% (max %.1f%%), datasheet roofline %.1f%%; "
              "fitted on the checked model itself %.2f%%; a free smooth curve per checked shape %.2f%%; jitter floor of the "
              "checked data %.2f%%\n",
              train.c_str(), check.c_str(), s.profile.points, 100 * s.profile.mape, 100 * s.profile.max_error,
              100 * s.baseline.mape, 100 * s.baseline.max_error, 100 * s.datasheet.mape, 100 * s.in_sample.mape,
              100 * s.free_curves.mape, 100 * s.jitter_floor.mape);
  return s;
}

TEST_CASE("a profile fitted on Llama-2-7B GEMMs predicts Llama-2-70B's better than a fitted plain roofline",
          "[calibrate][accuracy]") {
  const CrossModelScores s = cross_model("7b", "70b");
  REQUIRE(s.profile.points > 3000);
  CHECK(s.profile.mape < s.baseline.mape - 0.02);  // clearly better: at least two points of MAPE
  CHECK(s.profile.mape < 0.09);                     // measured 8.5%; guards against regressions
  CHECK(s.baseline.mape > 0.09);                    // the reference is what the issue says (~9-11%)
  CHECK(s.free_curves.mape > 0.05);                 // measured 6.3%: see the target test below
}

TEST_CASE("a profile fitted on Llama-2-70B GEMMs predicts Llama-2-7B's better than a fitted plain roofline",
          "[calibrate][accuracy]") {
  const CrossModelScores s = cross_model("70b", "7b");
  CHECK(s.profile.mape < s.baseline.mape - 0.02);
  CHECK(s.profile.mape < 0.075);  // measured 7.0%
  CHECK(s.free_curves.mape > 0.05);  // measured 5.25%: see the target test below
}

// The target (MAPE <= 5% on held-out GEMMs with >= 64 tokens, both directions) is not met:
// see calibrate/README.md. The checks above show why it cannot be with a model smooth in the token
// count: a free curve per measured shape, fitted to the very points it is scored on, misses 5% on
// both models, because cuBLAS's kernel switches put steps in M. Kept visible, not silenced: it
// reports its figures on every run.
TEST_CASE("target: cross-model GEMM MAPE at or below 5%", "[calibrate][accuracy][!mayfail]") {
  CHECK(cross_model("7b", "70b").profile.mape <= 0.05);
  CHECK(cross_model("70b", "7b").profile.mape <= 0.05);
}

}  // namespace
}  // namespace rlsim
