// A profile's measured tables: a measured shape is priced from its table (the measured time at a
// measured token count, interpolation in log(tokens) between two), and only an unmeasured shape or
// token count outside the table goes to the fitted model; each answer says which.
#include <catch2/catch.hpp>
#include <cmath>

#include "models/cost/profile.h"
#include "models/cost/profiled_cost_model.h"
#include "models/cost/roofline_cost_model.h"
#include "tests/models/reference_specs.h"

using namespace rlsim;
using Catch::Matchers::WithinRel;

namespace {

/// An H100 profile with a GEMM fit and one measured shape (n 4096, k 4096) whose times are ten
/// times what the fit says, so an answer shows which of the two it came from.
HardwareProfile profile_with_far_table(const HardwareSpec& card) {
  HardwareProfile p;
  p.card = card.name;
  p.sm_count = 132;
  p.l2_bytes = 50e6;
  OpClassProfile gemm;
  gemm.fit.launch_overhead_s = 5e-6;
  gemm.fit.compute_efficiency = 0.8;
  gemm.fit.memory_efficiency = 0.9;
  p.ops.push_back(gemm);
  MeasuredShape table;
  table.n = 4096;
  table.k = 4096;
  for (int64_t m : {64, 128, 256, 1024}) {
    table.tokens.push_back(m);
    table.seconds.push_back(10.0 * kernel_seconds(gemm.fit, make_gemm("g", m, 4096, 4096), card, 132, 50e6));
  }
  p.measured_shapes.push_back(table);
  return p;
}

}  // namespace

TEST_CASE("a measured shape answers with its measured time, far from the fitted model's", "[cost][profile]") {
  const HardwareSpec card = test::h100();
  const HardwareProfile p = profile_with_far_table(card);
  const MeasuredShape& table = p.measured_shapes.front();
  const Op at_128 = make_gemm("g", 128, 4096, 4096);
  const auto price = profile_price(p, at_128, card);
  REQUIRE(price);
  CHECK(price->source == PriceSource::measured);
  CHECK(price->seconds == table.seconds[1]);
  const double fitted = kernel_seconds(p.ops.front().fit, at_128, card, p.sm_count, p.l2_bytes);
  CHECK_THAT(price->seconds / fitted, WithinRel(10.0, 1e-12));
  // The cost model a run builds from the profile gives the same answer and says where it came from.
  const ProfiledCostModel model(p, std::make_unique<RooflineCostModel>());
  CHECK(model.seconds(at_128, card) == table.seconds[1]);
  REQUIRE(model.price(at_128, card));
  CHECK(model.price(at_128, card)->source == PriceSource::measured);
}

TEST_CASE("between measured token counts the table interpolates linearly in log(tokens)", "[cost][profile]") {
  const HardwareSpec card = test::h100();
  const HardwareProfile p = profile_with_far_table(card);
  const MeasuredShape& table = p.measured_shapes.front();
  // 512 is the geometric middle of 256 and 1024: the mean of their times.
  const auto mid = profile_price(p, make_gemm("g", 512, 4096, 4096), card);
  REQUIRE(mid);
  CHECK(mid->source == PriceSource::interpolated);
  CHECK_THAT(mid->seconds, WithinRel(0.5 * (table.seconds[2] + table.seconds[3]), 1e-12));
  // A quarter of the way in log(tokens) from 128 to 256.
  const double m = std::round(128.0 * std::pow(2.0, 0.25));
  const double w = std::log(m / 128.0) / std::log(2.0);
  const auto quarter = measured_shape_seconds(table, static_cast<int64_t>(m));
  REQUIRE(quarter);
  CHECK_THAT(*quarter, WithinRel(table.seconds[1] + w * (table.seconds[2] - table.seconds[1]), 1e-12));
}

TEST_CASE("outside the measured range or on another shape or precision the fitted model answers",
          "[cost][profile]") {
  const HardwareSpec card = test::h100();
  const HardwareProfile p = profile_with_far_table(card);
  const KernelFit& fit = p.ops.front().fit;
  for (const Op& op :
       {make_gemm("below", 32, 4096, 4096), make_gemm("above", 2048, 4096, 4096),
        make_gemm("other n", 128, 4097, 4096), make_gemm("fp8", 128, 4096, 4096, Precision::fp8),
        make_grouped_gemm("grouped", 8, 128, 4096, 4096)}) {
    const auto price = profile_price(p, op, card);
    REQUIRE(price);
    CHECK(price->source == PriceSource::fitted);
    CHECK(price->seconds == kernel_seconds(fit, op, card, p.sm_count, p.l2_bytes));
  }
  CHECK_FALSE(measured_shape_seconds(p.measured_shapes.front(), 2048));
}

TEST_CASE("a profile with only measured tables covers its shapes and leaves the rest to the fallback",
          "[cost][profile]") {
  const HardwareSpec card = test::h100();
  HardwareProfile p = profile_with_far_table(card);
  p.ops.clear();
  const ProfiledCostModel model(p, std::make_unique<RooflineCostModel>());
  const Op measured = make_gemm("g", 256, 4096, 4096), other = make_gemm("h", 256, 8192, 4096);
  CHECK(model.covers(measured));
  CHECK(model.seconds(measured, card) == p.measured_shapes.front().seconds[2]);
  CHECK_FALSE(model.covers(other));
  CHECK_FALSE(model.price(other, card));
  CHECK(model.seconds(other, card) == RooflineCostModel().seconds(other, card));
}
