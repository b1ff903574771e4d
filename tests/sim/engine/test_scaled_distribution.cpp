// A workload distribution stretched so its capped draws average a logged mean (calibrate --format
// verl fits each logged step at its own response length).
#include <catch2/catch.hpp>

#include "sim/engine/workload.h"

using namespace rlsim;

TEST_CASE("a capped lognormal stretched to a mean draws that mean, and keeps its cap and sigma") {
  Distribution d;
  d.kind = Distribution::Kind::lognormal;
  d.mean = 2500;
  d.spread = 0.8;
  d.max = 8192;
  for (const double target : {800.0, 2000.0, 5000.0}) {
    const auto scaled = scaled_to_mean(d, target);
    REQUIRE(scaled);
    CHECK(drawn_mean(*scaled) == Approx(target).epsilon(1e-3));
    CHECK(scaled->max == 8192);
    CHECK(scaled->spread == 0.8);
  }
  // The cap holds every draw at or below 8,192: no stretch averages more.
  CHECK_FALSE(scaled_to_mean(d, 9000));
}

TEST_CASE("uniform and fixed distributions stretch by one factor, a floor cannot be undercut") {
  Distribution u;
  u.kind = Distribution::Kind::uniform;
  u.low = 100;
  u.high = 300;
  const auto scaled = scaled_to_mean(u, 400);
  REQUIRE(scaled);
  // Drawn means carry sampling noise (20,000 draws): the factor is 2 to a few tenths of a percent.
  CHECK(scaled->low == Approx(200).epsilon(5e-3));
  CHECK(scaled->high == Approx(600).epsilon(5e-3));
  CHECK(drawn_mean(*scaled) == Approx(400).epsilon(1e-3));
  Distribution f = fixed_distribution(64);
  f.min = 32;
  CHECK(scaled_to_mean(f, 128)->value == Approx(128).epsilon(1e-3));
  CHECK_FALSE(scaled_to_mean(f, 16));  // below the floor of 32
}
