// The Registry template and ParamSchema: unknown names list the valid ones, entries list by order
// then name, plug-ins are made with or without parameters, and a value not given takes the default
// its schema declares.
#include <catch2/catch.hpp>
#include <limits>
#include <string>

#include "models/registry/registry.h"

using namespace rlsim;
using Catch::Matchers::Contains;

namespace {

struct Shape {
  virtual ~Shape() = default;
  virtual double size() const = 0;
};

struct Square : Shape {
  explicit Square(double scale) : scale_(scale) {}
  double size() const override { return scale_; }
  double scale_;
};

struct Circle : Shape {
  Circle(const ParamValues& params, double scale) : radius_(params.number("radius") * scale) {}
  double size() const override { return radius_; }
  double radius_;
};

using ShapeRegistry = Registry<Shape, double>;

ShapeRegistry make_shapes() {
  ShapeRegistry shapes;
  shapes.add_type<Square>("square", "four equal sides");
  shapes.add_type<Circle>("circle", "round", {ParamSpec::number("radius", 2.0, 0.0, 10.0, "radius")});
  return shapes;
}

}  // namespace

TEST_CASE("an unknown name is an error at the given place listing the valid names") {
  const ShapeRegistry shapes = make_shapes();
  try {
    shapes.at("sqare", {"s.yaml", 4, 9}, "shape");
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.where().line == 4);
    CHECK(e.where().column == 9);
    CHECK_THAT(e.message(),
               Contains("unknown shape 'sqare'") && Contains("valid values are: circle, square"));
  }
}

TEST_CASE("entries list by their order, then by name") {
  ShapeRegistry shapes = make_shapes();
  CHECK(shapes.names() == std::vector<std::string>{"circle", "square"});
  shapes.add_type<Square>("big", "listed last", {}, 10);
  shapes.add_type<Square>("anything", "listed first", {}, -1);
  CHECK(shapes.names() == std::vector<std::string>{"anything", "circle", "square", "big"});
}

TEST_CASE("a plug-in is made from its parameters, each absent one at its schema default") {
  const ShapeRegistry shapes = make_shapes();
  const SourceLocation here{"s.yaml", 1, 1};
  CHECK(shapes.make("square", {}, here, "shape", 3.0)->size() == 3.0);
  CHECK(shapes.make("circle", {}, here, "shape", 3.0)->size() == 6.0);  // radius 2 by default
  ParamValues values;
  values.set("radius", 5.0, {"s.yaml", 2, 11});
  CHECK(shapes.make("circle", values, here, "shape", 1.0)->size() == 5.0);
  CHECK_THROWS_AS(shapes.make("triangle", {}, here, "shape", 1.0), InputError);
}

TEST_CASE("a parameter shows its type, range, unit and default as a person writes them") {
  const ParamSpec staleness = ParamSpec::integer("max_staleness", 1, 0, 1000, "help");
  CHECK(staleness.type_text() == "integer");
  CHECK(staleness.range_text() == "0 to 1000");
  CHECK(staleness.default_text() == "1");
  const ParamSpec swap = ParamSpec::quantity_of("weight_swap", Quantity::duration, 0.0, "help", true);
  CHECK(swap.type_text() == "duration");
  CHECK(swap.unit == "s");
  CHECK(swap.range_text() == ">= 0");
  const ParamSpec mode = ParamSpec::choice("mode", {"a", "b"}, "b", "help");
  CHECK(mode.range_text() == "a | b");
  CHECK(mode.default_text() == "b");
}

TEST_CASE("an integer parameter's full int64 range is shown exactly") {
  // INT64_MAX has no exact double: the bound must not round-trip through one (UB found by fuzzing).
  const ParamSpec seed = ParamSpec::integer("seed", 1, 0, std::numeric_limits<int64_t>::max(), "help");
  CHECK(seed.range_text() == "0 to 9223372036854775807");
  CHECK(seed.whole_max == std::numeric_limits<int64_t>::max());
}

TEST_CASE("with_defaults keeps the values given and their places, and adds the rest") {
  const ParamSchema schema{ParamSpec::integer("n", 3, 0, 9, "n"), ParamSpec::flag("on", true, "on")};
  ParamValues given;
  given.set("n", int64_t{7}, {"s.yaml", 5, 6});
  const ParamValues all = given.with_defaults(schema);
  CHECK(all.integer("n") == 7);
  CHECK(all.where("n").line == 5);
  CHECK(all.flag("on"));
}

TEST_CASE("a value is shown as a person writes it, and an unset one as its default") {
  const ParamSpec budget = ParamSpec::integer("token_budget", 8192, 16, 1 << 24, "tokens");
  const ParamSpec swap = ParamSpec::quantity_of("weight_swap", Quantity::duration, 0.5, "help");
  const ParamSpec mode = ParamSpec::choice("mode", {"recompute", "swap"}, "recompute", "help");
  ParamValues given;
  given.set("token_budget", int64_t{2048}, {"s.yaml", 3, 4});
  given.set("mode", std::string("swap"), {"s.yaml", 3, 20});
  CHECK(given.text_of(budget) == "2048");
  CHECK(given.text_of(mode) == "swap");
  CHECK(given.text_of(swap) == swap.default_text());
  CHECK(ParamValues{}.text_of(budget) == "8192");
}
