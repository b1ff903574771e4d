// Units as people write them: parsing is strict (unit required, bits vs bytes by case) and
// formatting round-trips to the canonical form written into resolved.yaml.
#include <catch2/catch.hpp>
#include <string>

#include "models/units.h"

using namespace rlsim;

TEST_CASE("bandwidths, durations, rates and sizes parse into SI units") {
  CHECK(*parse_quantity("900GBps", Quantity::bandwidth) == Approx(900e9));
  CHECK(*parse_quantity("400Gbps", Quantity::bandwidth) == Approx(50e9));
  CHECK(*parse_quantity("50GB/s", Quantity::bandwidth) == Approx(50e9));
  CHECK(*parse_quantity("2us", Quantity::duration) == Approx(2e-6));
  CHECK(*parse_quantity("1.5ms", Quantity::duration) == Approx(1.5e-3));
  CHECK(*parse_quantity("30s", Quantity::duration) == Approx(30.0));
  CHECK(*parse_quantity("5min", Quantity::duration) == Approx(300.0));
  CHECK(*parse_quantity("989TFLOPS", Quantity::flop_rate) == Approx(989e12));
  CHECK(*parse_quantity("80GiB", Quantity::bytes) == Approx(80.0 * 1024 * 1024 * 1024));
  CHECK(*parse_quantity("141GB", Quantity::bytes) == Approx(141e9));
}

TEST_CASE("a quantity without its unit, with the wrong unit or malformed is refused with examples") {
  std::string why;
  CHECK_FALSE(parse_quantity("400", Quantity::bandwidth, &why));
  CHECK_THAT(why, Catch::Contains("400Gbps"));
  CHECK_FALSE(parse_quantity("2GB", Quantity::duration));
  CHECK_FALSE(parse_quantity("fast", Quantity::bandwidth));
  CHECK_FALSE(parse_quantity("1e999GBps", Quantity::bandwidth));
  CHECK_FALSE(parse_quantity("", Quantity::bytes));
}

TEST_CASE("formatting picks the shortest unit and reads back to the same value") {
  CHECK(format_quantity(50e9, Quantity::bandwidth) == "50GBps");
  CHECK(format_quantity(2e-6, Quantity::duration) == "2us");
  CHECK(format_quantity(80e9, Quantity::bytes) == "80GB");
  CHECK(format_quantity(80.0 * 1073741824.0, Quantity::bytes) == "80GiB");
  CHECK(format_quantity(0.0, Quantity::duration) == "0s");
  for (double v : {1.25e9, 3.35e12, 7.5e-7, 0.1, 12345.0}) {
    if (v >= smallest_positive_quantity(Quantity::bandwidth))  // slower links are refused (below)
      CHECK(*parse_quantity(format_quantity(v, Quantity::bandwidth), Quantity::bandwidth) == Approx(v));
    if (v <= largest_quantity(Quantity::duration))  // longer durations are refused (tested below)
      CHECK(*parse_quantity(format_quantity(v, Quantity::duration), Quantity::duration) == Approx(v));
  }
}

TEST_CASE("negative and physically absurd quantities are refused, the largest allowed one is not") {
  std::string why;
  CHECK_FALSE(parse_quantity("-64MiB", Quantity::bytes, &why));
  CHECK_THAT(why, Catch::Contains("positive value"));
  CHECK_FALSE(parse_quantity("1e300s", Quantity::duration, &why));
  CHECK_THAT(why, Catch::Contains("at most"));
  CHECK_FALSE(parse_quantity("2PBps", Quantity::bandwidth));
  CHECK_FALSE(parse_quantity("20EFLOPS", Quantity::flop_rate));
  for (Quantity kind : {Quantity::bandwidth, Quantity::duration, Quantity::flop_rate, Quantity::bytes}) {
    INFO(format_quantity(largest_quantity(kind), kind));
    const auto largest = parse_quantity(format_quantity(largest_quantity(kind), kind), kind);
    REQUIRE(largest);
    CHECK(*largest == Approx(largest_quantity(kind)));
    CHECK(*parse_quantity("0s", Quantity::duration) == 0.0);
  }
}

TEST_CASE("sub-unit durations read as the decimal they name, to the last bit") {
  // 5us is 5 / 1e6, the double nearest 5e-6; 5 * 1e-6 is one bit off for 858 of the integers 1 to
  // 999 times ms, us or ns, so a resolved.yaml's "5us" re-ran to another byte than the 5e-6 default.
  for (int n = 1; n < 1000; ++n) {
    INFO(n);
    CHECK(*parse_quantity(std::to_string(n) + "ms", Quantity::duration) ==
          std::stod(std::to_string(n) + "e-3"));
    CHECK(*parse_quantity(std::to_string(n) + "us", Quantity::duration) ==
          std::stod(std::to_string(n) + "e-6"));
    CHECK(*parse_quantity(std::to_string(n) + "ns", Quantity::duration) ==
          std::stod(std::to_string(n) + "e-9"));
  }
}

TEST_CASE("a bandwidth below 1 Mbps is refused, 0 and 1 Mbps are not") {
  std::string why;
  CHECK_FALSE(parse_quantity("56kbps", Quantity::bandwidth, &why));
  CHECK_THAT(why, Catch::Contains("at least 1Mbps"));
  CHECK(*parse_quantity("1Mbps", Quantity::bandwidth) == Approx(125000.0));
  CHECK(*parse_quantity("0Gbps", Quantity::bandwidth) == 0.0);
}
