// Ridge points, fallbacks to 16-bit paths, classification and the weighted roofline of a mixed pool.
#include <catch2/catch.hpp>

#include "models/cost/roofline.h"
#include "tests/models/reference_specs.h"

using namespace rlsim;
using Catch::Matchers::WithinRel;

TEST_CASE("H100 bf16 ridge is about 295 FLOP/byte", "[roofline]") {
  const auto ridge = ridge_point(test::h100(), Precision::bf16);
  REQUIRE(ridge);
  CHECK_THAT(*ridge, WithinRel(295.2, 0.001));
  CHECK_THAT(*ridge_point(test::h100(), Precision::fp8), WithinRel(590.7, 0.001));
}

TEST_CASE("a card without a precision has no native ridge and falls back to 16 bit", "[roofline]") {
  const HardwareSpec a800 = test::a800();
  CHECK_FALSE(ridge_point(a800, Precision::fp8));
  CHECK(effective_compute_precision(a800, Precision::fp8) == Precision::bf16);
  CHECK(compute_peak(a800, Precision::fp8) == 312e12);
  CHECK(compute_peak(test::h100(), Precision::int4) == 989e12);  // W4A16 multiplies in bf16
  CHECK(decode_cost_precision(a800) == Precision::bf16);
  CHECK(decode_cost_precision(test::h20()) == Precision::fp8);
}

TEST_CASE("fp4 multiplies at the card's fp4 peak where it has one, else in 16 bit", "[roofline]") {
  HardwareSpec blackwell = test::h100();
  blackwell.peak_flops[Precision::fp4] = 4 * 989e12;
  CHECK(effective_compute_precision(blackwell, Precision::fp4) == Precision::fp4);
  CHECK(compute_peak(blackwell, Precision::fp4) == 4 * 989e12);
  CHECK(effective_compute_precision(test::h100(), Precision::fp4) == Precision::bf16);
  CHECK(compute_peak(test::h100(), Precision::fp4) == 989e12);
}

TEST_CASE("below the ridge is memory-bound, at or above compute-bound", "[roofline]") {
  CHECK(classify(100, 295) == Bound::memory);
  CHECK(classify(295, 295) == Bound::compute);
  CHECK(attainable_flops(989e12, 3.35e12, 10) == 33.5e12);
  CHECK(attainable_flops(989e12, 3.35e12, 1000) == 989e12);
}

TEST_CASE("a mixed pool's ridge is aggregate peak over aggregate bandwidth", "[roofline]") {
  const WeightedRoofline pool = weighted_roofline({{test::h800(), 2}, {test::h20(), 6}}, Precision::bf16);
  const double peak = 2 * 989e12 + 6 * 148e12, bw = 2 * 3.35e12 + 6 * 4.0e12;
  CHECK_THAT(pool.ridge(), WithinRel(peak / bw, 1e-12));
  // At an intensity between the two ridges (H20 37, H800 295) the H20s are at their peak.
  CHECK_THAT(pool.attainable(100), WithinRel(2 * 100 * 3.35e12 + 6 * 148e12, 1e-12));
  CHECK(pool.attainable(1e6) == pool.peak_flops);
}
