// The engine tests' child-process helper itself: figures come back exactly and by name, a missing
// name is an error rather than a zero, and a child's failure reaches the parent with its message.
#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>

#include "models/input_error.h"
#include "tests/sim/sim_test_support.h"

using namespace rlsim;

TEST_CASE("figures cross from the child exactly and by name") {
  const double third = 1.0 / 3.0, tiny = std::nextafter(0.0, 1.0);
  const test::Figures back = test::figures_in_child([&]() {
    test::Figures out;
    out.set("third", third);
    out.set("tiny", tiny);
    out.set_text("advice", "label_scheduling");
    out.set_list("steps", {1.5, third, 2e-300});
    out.set_list("none", {});
    return out;
  });
  CHECK(back.at("third") == third);
  CHECK(back.at("tiny") == tiny);
  CHECK(back.text("advice") == "label_scheduling");
  CHECK(back.list("steps") == std::vector<double>{1.5, third, 2e-300});
  CHECK(back.list("none").empty());
  CHECK(back.names() == std::vector<std::string>{"advice", "none", "steps", "third", "tiny"});
  CHECK_FALSE(back.has("step_s"));
  CHECK_THROWS_WITH(back.at("step_s"), Catch::Contains("step_s"));
}

TEST_CASE("a child's failure reaches the parent with its message") {
  CHECK_THROWS_WITH(test::figures_in_child([]() -> test::Figures { throw std::runtime_error("no engine"); }),
                    Catch::Contains("no engine"));
  CHECK_THROWS_WITH(test::figures_in_child([]() -> test::Figures {
                      throw InputError({"s.yaml", 3, 4}, "unknown GPU 'H2000'");
                    }),
                    Catch::Contains("unknown GPU 'H2000'"));
}
