// Grouping per-op costs into modules (see module_costs.h).
#include "models/ops/module_costs.h"

#include <map>
#include <string_view>

namespace rlsim {
namespace {

std::string_view module_of(std::string_view op) {
  static const std::map<std::string_view, std::string_view> table{{"q_proj", "q_proj"},
                                                                  {"q_a_proj", "q_proj"},
                                                                  {"q_b_proj", "q_proj"},
                                                                  {"q_absorb", "q_proj"},
                                                                  {"kv_proj", "kv_proj"},
                                                                  {"kv_a_proj", "kv_proj"},
                                                                  {"kv_b_proj", "kv_proj"},
                                                                  {"attn_core", "attention"},
                                                                  {"v_absorb", "o_proj"},
                                                                  {"o_proj", "o_proj"},
                                                                  {"ffn_up", "ffn"},
                                                                  {"ffn_act", "ffn"},
                                                                  {"ffn_down", "ffn"},
                                                                  {"shared_up", "shared_experts"},
                                                                  {"shared_act", "shared_experts"},
                                                                  {"shared_down", "shared_experts"},
                                                                  {"expert_up", "routed_experts"},
                                                                  {"expert_act", "routed_experts"},
                                                                  {"expert_down", "routed_experts"},
                                                                  {"router", "router"},
                                                                  {"lm_head", "lm_head"},
                                                                  {"norms", "norms"},
                                                                  {"final_norm", "norms"},
                                                                  {"embedding", "norms"}};
  auto it = table.find(op);
  return it == table.end() ? op : it->second;
}

const std::vector<std::string_view>& module_order() {
  static const std::vector<std::string_view> order{"q_proj",  "kv_proj",        "attention", "o_proj",
                                                   "ffn",     "shared_experts", "router",    "routed_experts",
                                                   "lm_head", "norms"};
  return order;
}

}  // namespace

Bound ModuleCost::bound_on(const HardwareSpec& card) const {
  return classify(arithmetic_intensity(), effective_ridge_point(card, compute));
}

std::vector<ModuleCost> module_costs(const ModelArch& arch, const ForwardPass& pass) {
  std::map<std::string_view, ModuleCost> modules;
  std::map<std::string_view, double> largest;
  for (const CountedOp& counted : forward_ops(arch, pass)) {
    const std::string_view name = module_of(counted.op.name);
    ModuleCost& m = modules[name];
    m.name = std::string(name);
    m.flops += counted.count * counted.op.flops;
    m.bytes += counted.count * counted.op.bytes;
    if (counted.op.flops > largest[name]) {
      largest[name] = counted.op.flops;
      m.compute = counted.op.compute;
    }
  }
  std::vector<ModuleCost> ordered;
  for (std::string_view name : module_order()) {
    auto it = modules.find(name);
    if (it != modules.end()) ordered.push_back(it->second);
  }
  return ordered;
}

}  // namespace rlsim
