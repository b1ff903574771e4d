// The roofline cost model and the cost-model registry.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "models/cost/cost_model_registry.h"
#include "models/cost/roofline_cost_model.h"
#include "tests/models/reference_specs.h"

using namespace rlsim;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinRel;

TEST_CASE("a memory-bound op costs bytes over effective bandwidth plus the launch overhead", "[cost]") {
  RooflineCostModel model;
  const HardwareSpec card = test::h100();
  const Op op = make_memory_op("copy", 1e9);
  const RooflineEfficiency e;
  CHECK_THAT(model.seconds(op, card), WithinRel(1e9 / (3.35e12 * e.bandwidth) + e.launch_overhead_s, 1e-12));
}

TEST_CASE("a large GEMM is compute-bound at the shape-dependent efficiency", "[cost]") {
  RooflineCostModel model;
  const HardwareSpec card = test::h100();
  const Op op = make_gemm("big", 8192, 8192, 8192, Precision::bf16);
  const double eff = model.compute_efficiency(op);
  CHECK(eff > 0.70);
  CHECK(eff < 0.75);
  // Compute-bound: the memory time (a tenth of it) adds (1 + 0.1^2.7)^(1/2.7) - 1, under 0.1 %.
  const double compute = op.flops / (989e12 * eff), memory = op.bytes / (3.35e12 * 0.85);
  CHECK(memory < 0.1 * compute);
  CHECK_THAT(model.seconds(op, card),
             WithinRel(std::pow(std::pow(compute, 2.7) + std::pow(memory, 2.7), 1 / 2.7) + 4e-6, 1e-12));
  CHECK(model.seconds(op, card) < 1.001 * (compute + 4e-6));
  // fp8 uses the fp8 peak, so the same shape runs about twice as fast.
  const Op fp8 = make_gemm("big", 8192, 8192, 8192, Precision::fp8);
  CHECK_THAT(model.seconds(fp8, card), WithinRel((model.seconds(op, card) - 4e-6) / 2 + 4e-6, 0.01));
}

TEST_CASE("a GEMM between the regimes pays for compute and memory not overlapping fully", "[cost]") {
  // p = 2.7, the overlap exponent rlsim calibrate fitted to vidur's H100 GEMM timings: at the
  // ridge, where compute and memory take as long, the GEMM takes 2^(1/2.7) = 1.29 times either.
  const HardwareSpec card = test::h100();
  RooflineEfficiency full;
  full.gemm_overlap_exponent = 1000;  // max(compute, memory)
  const RooflineCostModel overlapped, maxed(full);
  for (int64_t m : {64, 256, 512, 1024, 4096}) {
    const Op op = make_gemm("g", m, 8192, 8192, Precision::fp8);
    const double c = op.flops / (1979e12 * overlapped.compute_efficiency(op)),
                 b = op.bytes / (3.35e12 * 0.85);
    CHECK_THAT(maxed.seconds(op, card), WithinRel(std::max(c, b) + 4e-6, 1e-9));
    CHECK_THAT(overlapped.seconds(op, card),
               WithinRel(std::pow(std::pow(c, 2.7) + std::pow(b, 2.7), 1 / 2.7) + 4e-6, 1e-12));
    CHECK(overlapped.seconds(op, card) <= std::pow(2.0, 1 / 2.7) * std::max(c, b) + 4e-6 + 1e-15);
  }
  // Attention and memory-bound ops keep max(compute, memory), here at their ridge too.
  const Op copy = make_memory_op("copy", 1e9, 1e9 / (3.35e12 * 0.85) * 989e12 * 0.75);
  CHECK_THAT(overlapped.seconds(copy, card), WithinRel(maxed.seconds(copy, card), 1e-12));
}

TEST_CASE("small GEMM dimensions lower the compute efficiency", "[cost]") {
  RooflineCostModel model;
  CHECK(model.compute_efficiency(make_gemm("a", 16, 4096, 4096)) <
        model.compute_efficiency(make_gemm("b", 256, 4096, 4096)));
  CHECK(model.compute_efficiency(make_gemm("b", 256, 4096, 4096)) <
        model.compute_efficiency(make_gemm("c", 4096, 4096, 4096)));
}

TEST_CASE("times are never negative and grow with work", "[cost]") {
  RooflineCostModel model;
  const HardwareSpec card = test::h20();
  double previous = 0.0;
  for (int64_t m : {1, 8, 64, 512, 4096}) {
    const double t = model.seconds(make_gemm("g", m, 4096, 4096), card);
    CHECK(t > previous);
    previous = t;
  }
}

TEST_CASE("cost models are made by name and unknown names list the valid ones", "[cost]") {
  auto model = make_cost_model({"roofline"});
  REQUIRE(model);
  CHECK(model->name() == "roofline");
  try {
    make_cost_model({"rooflin", {}, {"scenario.yaml", 3, 5}});
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK_THAT(std::string(e.what()),
               Contains("scenario.yaml:3:5") && Contains("valid values are: ") && Contains("roofline"));
  }
  CHECK_THROWS_AS(make_cost_model({"roofline"}, "h100.yaml"), InputError);
}

TEST_CASE("the roofline's parameters default to RooflineEfficiency and override it when set", "[cost]") {
  const auto& roofline = *CostModelRegistry::instance().find("roofline");
  const RooflineEfficiency defaults;
  const ParamValues values = ParamValues::defaults(roofline.params);
  CHECK(values.number("gemm_compute") == defaults.gemm_compute);
  CHECK(values.number("gemm_half_dim") == defaults.gemm_half_dim);
  CHECK(values.number("attention_compute") == defaults.attention_compute);
  CHECK(values.number("bandwidth") == defaults.bandwidth);
  CHECK(values.number("launch_overhead") == defaults.launch_overhead_s);

  PluginSpec choice{"roofline"};
  choice.params.set("bandwidth", 0.5, {"scenario.yaml", 4, 3});
  auto model = make_cost_model(choice);
  const Op op = make_memory_op("copy", 1e9);
  CHECK_THAT(model->seconds(op, test::h100()),
             WithinRel(1e9 / (3.35e12 * 0.5) + defaults.launch_overhead_s, 1e-12));
}

TEST_CASE("other cost models can register themselves", "[cost]") {
  struct Constant : CostModel {
    double seconds(const Op&, const HardwareSpec&) const override { return 1.0; }
    std::string name() const override { return "test-constant"; }
  };
  CostModelRegistry::instance().add({"test-constant",
                                     "one second per op",
                                     {},
                                     [](const ParamValues&, const std::string&, const SourceLocation&) {
                                       return std::unique_ptr<CostModel>(std::make_unique<Constant>());
                                     },
                                     0});
  const auto names = CostModelRegistry::instance().names();
  CHECK(std::find(names.begin(), names.end(), "test-constant") != names.end());
  CHECK(make_cost_model({"test-constant"})->seconds(make_memory_op("x", 1), test::h100()) == 1.0);
}
