// Trace timestamps (tools/report/chrome_trace.h): append_micros prints whole nanoseconds as
// microseconds to three decimals from integers, byte for byte what printf("%.3f") prints.
#include <catch2/catch.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "tools/report/chrome_trace.h"

using namespace rlsim;

namespace {

std::string printed(double micros) {
  char buffer[400];
  const int n = std::snprintf(buffer, sizeof buffer, "%.3f", micros);
  return std::string(buffer, static_cast<size_t>(n));
}

std::string appended(double micros) {
  std::string out = "x";
  append_micros(out, micros);
  return out.substr(1);
}

}  // namespace

TEST_CASE("append_micros prints trace times and their differences as printf %.3f does") {
  std::vector<double> seconds = {
      0.0,          1e-9,        4e-9,          999e-9,          1e-6,     0.1, 0.123456789, 1.0, 3.0000005,
      59.999999999, 8.688230587, 3600.0 + 1e-9, 86400.123456789, 1e6 / 3.0};
  for (int i = 0; i < 2000; ++i) seconds.push_back(i * 0.000731 + i * i * 1.37e-7);
  for (double s : seconds) {
    const double start = trace_micros(s);
    const double end = trace_micros(s * 1.7 + 2.5e-9);
    CHECK(appended(start) == printed(start));
    CHECK(appended(end - start) == printed(end - start));
  }
  CHECK(appended(-0.0) == "-0.000");
  CHECK(appended(trace_micros(-1.5e-9)) == printed(trace_micros(-1.5e-9)));
  CHECK(appended(-1234.5) == "-1234.500");
}

TEST_CASE("append_micros leaves times past exact integers of nanoseconds, and non-finite ones, to printf") {
  for (double micros : {1e13, 1e300, -1e300}) CHECK(appended(micros) == printed(micros));
}
