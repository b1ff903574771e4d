// The fitter's pieces: alpha-beta fits recover known parameters, the shape-aware model answers for
// any shape with sane behaviour, profiles are written deterministically, and the profiled cost
// model falls back for op classes it did not measure.
#include <catch2/catch.hpp>
#include <cmath>

#include "calibrate/collective_fitter.h"
#include "calibrate/fit_error.h"
#include "calibrate/nelder_mead.h"
#include "calibrate/profile_fitter.h"
#include "calibrate/profile_writer.h"
#include "models/cost/profiled_cost_model.h"
#include "models/cost/roofline_cost_model.h"
#include "tests/calibrate/calibrate_test_support.h"

namespace rlsim {
namespace {

TEST_CASE("Nelder-Mead finds the minimum of a shifted quadratic", "[calibrate][fit]") {
  auto f = [](const std::vector<double>& x) {
    return (x[0] - 3) * (x[0] - 3) + 10 * (x[1] + 1) * (x[1] + 1);
  };
  const auto r = minimize_nelder_mead(f, {0.0, 0.0});
  CHECK(r.x[0] == Approx(3.0).margin(1e-3));
  CHECK(r.x[1] == Approx(-1.0).margin(1e-3));
}

TEST_CASE("alpha-beta fit recovers latency and bandwidth and scores held-out sizes", "[calibrate][fit]") {
  std::vector<CollectiveMeasurement> points;
  for (double bytes = 4096; bytes <= 64e6; bytes *= 1.5) {
    points.push_back({Collective::all_reduce, 8, 8, bytes, 20e-6 + bytes / 200e9, "synthetic"});
  }
  const auto fits = fit_collectives(points);
  REQUIRE(fits.size() == 1);
  CHECK(fits[0].alpha_s == Approx(20e-6).epsilon(1e-6));
  CHECK(fits[0].bandwidth_bytes_per_s == Approx(200e9).epsilon(1e-6));
  CHECK(fits[0].error.held_out_points > 0);
  CHECK(fits[0].error.held_out_mape < 1e-9);
  // Another group size: ring traffic 2(n-1)/n rescales the bandwidth term.
  const double at8 = collective_seconds(fits[0], 8, 64e6), at4 = collective_seconds(fits[0], 4, 64e6);
  CHECK(at4 - 20e-6 == Approx((at8 - 20e-6) * (1.5 / 1.75)));
}

TEST_CASE("the fitted profile answers for shapes it never saw, monotone in tokens", "[calibrate][fit]") {
  const HardwareSpec card = test::h100();
  CalibrationSettings settings{card, 132, 50e6, "2024-01-01", ""};
  const HardwareProfile profile = fit_profile(test::llama2_h100("7b"), settings);
  REQUIRE(profile.ops.size() == 1);
  CHECK(profile.ops[0].error.held_out_points > 0);  // one model: every fifth point held out
  CHECK(profile.ops[0].error.held_out_mape < profile.ops[0].error.baseline_held_out_mape);
  double previous = 0.0;
  for (int64_t m : {1, 3, 100, 1000, 5000, 16384, 100000}) {
    const auto t = profile_seconds(profile, make_gemm("x", m, 14336, 5120), card);
    REQUIRE(t.has_value());
    CHECK(*t > 0.0);
    CHECK(*t >= previous * 0.9);  // wave steps may dip a little, never collapse
    previous = *t;
  }
  // Large GEMMs stay below the datasheet peak; fp8 uses the fp8 peak.
  const Op big = make_gemm("big", 16384, 16384, 16384);
  CHECK(big.flops / *profile_seconds(profile, big, card) < 989e12);
  const Op big8 = make_gemm("big8", 16384, 16384, 16384, Precision::fp8);
  CHECK(*profile_seconds(profile, big8, card) < *profile_seconds(profile, big, card));
}

TEST_CASE("the jitter floor scores each GEMM against the line through its neighbours in tokens",
          "[calibrate][fit]") {
  auto point = [](int64_t m, double seconds, int64_t n = 4096, std::string group = "a") {
    return Measurement{make_gemm("x", m, n, 4096), seconds, "synthetic", std::move(group)};
  };
  // Time linear in M except one point 20% slow: only that point and its neighbours miss.
  std::vector<Measurement> points;
  for (int64_t m = 64; m <= 512; m += 64)
    points.push_back(point(m, 1e-6 * static_cast<double>(m) * (m == 256 ? 1.2 : 1.0)));
  const RelativeErrors e = neighbour_interpolation_errors(points);
  CHECK(e.points == 6);  // both ends have one neighbour only
  CHECK(e.max_error == Approx(0.2 / 1.2));
  // 192 and 320 are predicted halfway to the slow 256: (1 + 0.2 * 256/ (2 * m)) - 1 off.
  CHECK(e.mape == Approx((0.2 / 1.2 + 0.2 * 256 / 2 / 192.0 + 0.2 * 256 / 2 / 320.0) / 6.0));
  // Another shape or another group is another series; a perfectly linear one scores zero.
  std::vector<Measurement> linear;
  for (int64_t m : {64, 128, 256, 512}) linear.push_back(point(m, 1e-6 * static_cast<double>(m), 8192, "b"));
  CHECK(neighbour_interpolation_errors(linear).mape == Approx(0.0).margin(1e-12));
  CHECK(neighbour_interpolation_errors(linear).points == 2);
  linear.push_back(point(128, 9e-6, 4096, "c"));  // a lone point of its own series is not scored
  CHECK(neighbour_interpolation_errors(linear).points == 2);
}

TEST_CASE("a free curve per series follows anything smooth in log M but not a step", "[calibrate][fit]") {
  auto point = [](int64_t m, double seconds, int64_t n = 4096) {
    return Measurement{make_gemm("x", m, n, 4096), seconds, "synthetic", "a"};
  };
  // Piecewise linear in log2(M) with breaks on the half-octave knots (64, 90.5, 128, ...): exact.
  std::vector<Measurement> smooth;
  for (int64_t m = 64; m <= 1024; m += 32) {
    smooth.push_back(point(m, 1e-6 * (2.0 + std::abs(std::log2(static_cast<double>(m)) - 8.0))));
  }
  const RelativeErrors exact = per_series_curve_errors(smooth);
  CHECK(exact.points == static_cast<int>(smooth.size()));
  CHECK(exact.mape == Approx(0.0).margin(1e-9));
  // A 50% step between M = 512 and 544 (a kernel switch) cannot be followed by a smooth curve.
  std::vector<Measurement> step;
  for (int64_t m = 64; m <= 1024; m += 32) step.push_back(point(m, 1e-6 * (m > 512 ? 1.5 : 1.0), 8192));
  const RelativeErrors stepped = per_series_curve_errors(step);
  CHECK(stepped.mape > 0.01);
  CHECK(stepped.max_error > 0.1);
  // `keep` chooses the points both fitted and scored; series are fitted apart.
  auto large = [](const Measurement& m) { return m.op.gemm.m > 512; };
  CHECK(per_series_curve_errors(step, large).mape == Approx(0.0).margin(1e-9));
  std::vector<Measurement> both = smooth;
  both.insert(both.end(), step.begin(), step.end());
  CHECK(
      per_series_curve_errors(both).mape ==
      Approx((exact.mape * exact.points + stepped.mape * stepped.points) / (exact.points + stepped.points)));
}

TEST_CASE("the profile YAML is the same bytes for the same measurements", "[calibrate][fit]") {
  const HardwareSpec card = test::h100();
  MeasurementSet set = import_vidur_csv(test::vidur_file("h100_all_reduce_dgx.csv"));
  CalibrationSettings settings{card, 132, 50e6, "", ""};
  const std::string a = profile_to_yaml(fit_profile(set, settings));
  const std::string b = profile_to_yaml(fit_profile(set, settings));
  CHECK(a == b);
  CHECK(a.find("date: \"unknown\"") != std::string::npos);
  CHECK(a.find("collective: all_reduce") != std::string::npos);
  CHECK(a.find("held_out_mape:") != std::string::npos);
}

TEST_CASE("the profiled cost model uses the profile where it has a fit and the roofline elsewhere",
          "[calibrate][cost]") {
  const HardwareSpec card = test::h100();
  HardwareProfile profile;
  profile.card = "H100";
  profile.sm_count = 132;
  OpClassProfile gemm;
  gemm.fit.launch_overhead_s = 1e-3;  // absurd on purpose: shows which model answered
  profile.ops.push_back(gemm);
  const ProfiledCostModel model(profile, std::make_unique<RooflineCostModel>());
  const Op g = make_gemm("g", 128, 128, 128);
  AttentionShape s{8, 1, 4096, 32, 8, 128, 128};
  const Op a = make_attention_decode("a", s);
  CHECK(model.covers(g));
  CHECK_FALSE(model.covers(a));
  CHECK(model.seconds(g, card) > 1e-3);
  CHECK(model.seconds(a, card) == RooflineCostModel().seconds(a, card));
  CHECK(model.covers(make_grouped_gemm("e", 8, 16, 256, 128)));  // grouped GEMMs use the GEMM fit
}

}  // namespace
}  // namespace rlsim
