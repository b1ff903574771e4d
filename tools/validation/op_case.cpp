// Pricing a kernel-level validation case (see op_case.h).
#include "tools/validation/op_case.h"

#include "models/cost/cost_model_registry.h"
#include "sim/scenario/catalog.h"

namespace rlsim {

nlohmann::json op_case_metrics(const OpCase& c) {
  const Catalog catalog = load_builtin_catalog();
  const HardwareSpec& card = catalog.card(c.hardware, {});
  const double seconds = make_cost_model({"roofline"})->seconds(c.op, card);
  const GemmShape& g = c.op.gemm;
  return nlohmann::json{{"hardware", c.hardware},
                        {"cost_model", "roofline"},
                        {"op",
                         {{"class", std::string(to_string(c.op.op_class))},
                          {"m", g.m},
                          {"n", g.n},
                          {"k", g.k},
                          {"groups", g.groups},
                          {"dtype", std::string(to_string(c.op.compute))},
                          {"flops", c.op.flops},
                          {"bytes", c.op.bytes}}},
                        {"seconds", seconds},
                        {"tflops", c.op.flops / seconds / 1e12}};
}

}  // namespace rlsim
