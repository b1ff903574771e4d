// JSON from users: syntax errors located, numbers out of range and absurd nesting refused as
// input errors, never a library exception or an endless loop.
#include <catch2/catch.hpp>

#include "calibrate/json_input.h"
#include "models/input_error.h"

using rlsim::parse_json_input;

namespace {
std::string error_of(const std::string& text) {
  try {
    parse_json_input(text, "m.json");
  } catch (const rlsim::InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("valid JSON nested as deep as allowed parses") {
  std::string text = "1";
  for (int depth = 0; depth < rlsim::kMaxJsonDepth; ++depth) text = "[" + text + "]";
  CHECK(parse_json_input(text, "m.json").is_array());
  CHECK(parse_json_input(R"({"a": {"b": [1, 2.5, "x"]}})", "m.json")["a"]["b"][1] == 2.5);
}

TEST_CASE("nesting past the limit is an input error, however deep") {
  for (int depth : {rlsim::kMaxJsonDepth + 1, 65, 100000}) {
    INFO(depth);
    const std::string text =
        std::string(static_cast<size_t>(depth), '[') + std::string(static_cast<size_t>(depth), ']');
    CHECK_THAT(error_of(text), Catch::Contains("nested more than"));
  }
}

TEST_CASE("a syntax error is located at its line and column") {
  CHECK_THAT(error_of("{\n  \"a\": 1,\n  oops\n}"), Catch::StartsWith("m.json:3:3:"));
}

TEST_CASE("a number too large for a double is an input error, not an exception from the library") {
  CHECK_THAT(error_of(R"({"seconds": 1e999})"),
             Catch::StartsWith("m.json:") && Catch::Contains("not valid JSON"));
}
