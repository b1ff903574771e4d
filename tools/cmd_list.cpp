// `rlsim list hardware|models|policies`: what the built-in catalogs and registries hold.
#include <iomanip>
#include <iostream>

#include "models/units.h"
#include "sim/scenario/catalog.h"
#include "tools/command.h"

namespace rlsim {
namespace {

void list_hardware(const Catalog& catalog) {
  std::cout << std::left << std::setw(12) << "card" << std::setw(14) << "bf16" << std::setw(14) << "fp8"
            << std::setw(11) << "HBM BW" << std::setw(10) << "memory" << std::setw(11) << "scale-up"
            << std::setw(10) << "NIC/GPU" << std::setw(7) << "TDP" << "USD/h\n";
  for (const auto& [name, card] : catalog.hardware) {
    auto peak = [&](Precision p) {
      auto v = card.peak(p);
      return v ? format_quantity(*v, Quantity::flop_rate) : std::string("-");
    };
    std::cout << std::setw(12) << name << std::setw(14) << peak(Precision::bf16) << std::setw(14)
              << peak(Precision::fp8) << std::setw(11) << format_quantity(card.mem_bw_bytes_per_s, Quantity::bandwidth)
              << std::setw(10) << format_quantity(card.mem_capacity_bytes, Quantity::bytes) << std::setw(11)
              << format_quantity(card.intra_node_bw_bytes_per_s, Quantity::bandwidth) << std::setw(10)
              << format_quantity(card.nic_bw_bytes_per_s, Quantity::bandwidth) << std::setw(7)
              << (format_number(card.tdp_watts) + "W") << format_number(card.usd_per_hour) << "\n";
  }
}

const char* attention_name(AttentionKind kind) {
  switch (kind) {
    case AttentionKind::mha: return "MHA";
    case AttentionKind::gqa: return "GQA";
    case AttentionKind::mqa: return "MQA";
    case AttentionKind::mla: return "MLA";
    case AttentionKind::mfa: return "MFA";
  }
  return "?";
}

void list_models(const Catalog& catalog) {
  std::cout << std::left << std::setw(18) << "model" << std::setw(8) << "layers" << std::setw(8) << "hidden"
            << std::setw(11) << "attention" << std::setw(10) << "q/kv" << "ffn\n";
  for (const auto& [name, m] : catalog.models) {
    std::string ffn = m.ffn.is_moe() ? "MoE " + std::to_string(m.ffn.routed_experts) + " experts top-" +
                                           std::to_string(m.ffn.experts_per_token)
                                     : "dense " + std::to_string(m.ffn.intermediate_size);
    std::cout << std::setw(18) << name << std::setw(8) << m.layers << std::setw(8) << m.hidden_size
              << std::setw(11) << attention_name(m.attention.kind) << std::setw(10)
              << (std::to_string(m.attention.q_heads) + "/" + std::to_string(m.attention.kv_heads)) << ffn << "\n";
  }
}

class ListCommand : public Command {
 public:
  CLI::App* add_to(CLI::App& root) override {
    CLI::App* sub = root.add_subcommand("list", "List registered hardware, models or policies");
    sub->footer("Examples:\n  rlsim list hardware\n  rlsim list models");
    sub->add_option("what", what_, "What to list")->required()->check(CLI::IsMember({"hardware", "models", "policies"}));
    return sub;
  }
  int run() override {
    if (what_ == "policies") {
      std::cout << "policies: not yet registered\n";
      return kExitOk;
    }
    Catalog catalog = load_builtin_catalog();
    if (what_ == "hardware") list_hardware(catalog);
    if (what_ == "models") list_models(catalog);
    return kExitOk;
  }

 private:
  std::string what_;
};

}  // namespace
RLSIM_REGISTER_COMMAND(ListCommand, "list", 90);
}  // namespace rlsim
