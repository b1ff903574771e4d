// `rlsim list hardware|models|engines|policies|routers|schedulers|cost-models`: what the built-in
// catalogs and the registries hold; a registry entry is listed with the table of its parameters (key, type,
// range, unit, default, help), which is what its YAML block accepts.
#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <iostream>

#include "models/arch_params.h"
#include "models/cost/cost_model_registry.h"
#include "models/cost/roofline.h"
#include "models/units.h"
#include "sim/scenario/catalog.h"
#include "sim/scenario/plugins.h"
#include "tools/cli/command.h"

namespace rlsim {
namespace {

/// The card's ridge point at `p`, rounded, or "-" without that tensor path.
std::string ridge(const HardwareSpec& card, Precision p) {
  auto value = ridge_point(card, p);
  return value ? std::to_string(static_cast<long>(*value + 0.5)) : std::string("-");
}

void list_hardware(const Catalog& catalog) {
  std::cout << std::left << std::setw(12) << "card" << std::setw(14) << "bf16" << std::setw(14) << "fp8"
            << std::setw(12) << "fp4" << std::setw(11) << "HBM BW" << std::setw(10) << "memory"
            << std::setw(11) << "scale-up" << std::setw(10) << "NIC/GPU" << std::setw(7) << "TDP"
            << std::setw(7) << "USD/h"
            << "ridge bf16/fp8 (FLOP/byte)\n";
  for (const auto& [name, card] : catalog.hardware) {
    auto peak = [&](Precision p) {
      auto v = card.peak(p);
      return v ? format_quantity(*v, Quantity::flop_rate) : std::string("-");
    };
    std::cout << std::setw(12) << name << std::setw(14) << peak(Precision::bf16) << std::setw(14)
              << peak(Precision::fp8) << std::setw(12) << peak(Precision::fp4) << std::setw(11)
              << format_quantity(card.mem_bw_bytes_per_s, Quantity::bandwidth) << std::setw(10)
              << format_quantity(card.mem_capacity_bytes, Quantity::bytes) << std::setw(11)
              << format_quantity(card.intra_node_bw_bytes_per_s, Quantity::bandwidth) << std::setw(10)
              << format_quantity(card.nic_bw_bytes_per_s, Quantity::bandwidth) << std::setw(7)
              << (format_number(card.tdp_watts) + "W") << std::setw(7) << format_number(card.usd_per_hour)
              << ridge(card, Precision::bf16) << "/" << ridge(card, Precision::fp8) << "\n";
  }
}

/// "8.03B" or "1.03T".
std::string params_text(double params) {
  const bool trillions = params >= 1e12;
  const double scaled = params / (trillions ? 1e12 : 1e9);
  char text[32];
  std::snprintf(text, sizeof text,
                scaled < 10    ? "%.2f%s"
                : scaled < 100 ? "%.1f%s"
                               : "%.0f%s",
                scaled, trillions ? "T" : "B");
  return text;
}

/// "40960" or "40960-131072": the window, and the rope-scaled one where documented.
std::string context_text(const ModelArch& m) {
  std::string text = std::to_string(m.context_window_tokens);
  if (m.extended_context_tokens > 0) text += "-" + std::to_string(m.extended_context_tokens);
  return text;
}

void list_models(const Catalog& catalog) {
  std::cout << std::left << std::setw(18) << "model" << std::setw(8) << "layers" << std::setw(8) << "hidden"
            << std::setw(11) << "attention" << std::setw(10) << "q/kv" << std::setw(9) << "total"
            << std::setw(9) << "active" << std::setw(15) << "context"
            << "ffn\n";
  for (const auto& [name, m] : catalog.models) {
    std::string ffn =
        m.ffn.is_moe()
            ? "MoE " + std::to_string(m.ffn.routed_experts) + " experts top-" +
                  std::to_string(m.ffn.experts_per_token) +
                  (m.ffn.shared_experts > 0 ? " +" + std::to_string(m.ffn.shared_experts) + " shared" : "")
            : "dense " + std::to_string(m.ffn.intermediate_size);
    std::cout << std::setw(18) << name << std::setw(8) << m.layers << std::setw(8) << m.hidden_size
              << std::setw(11) << attention_kind_label(m.attention.kind) << std::setw(10)
              << (std::to_string(m.attention.q_heads) + "/" + std::to_string(m.attention.kv_heads))
              << std::setw(9) << params_text(total_params(m)) << std::setw(9) << params_text(active_params(m))
              << std::setw(15) << context_text(m) << ffn << "\n";
  }
  std::cout
      << "context: tokens per sequence (config.json's max_position_embeddings), then the longer window the "
         "authors document (rope scaling or extrapolation), up to which rollout/serve.max_model_len may be "
         "set\n";
}

void list_engines(const Catalog& catalog) {
  size_t batching_width = std::string("batching").size();
  for (const auto& [name, e] : catalog.engines) batching_width = std::max(batching_width, e.scheduler.size());
  const int batching = static_cast<int>(batching_width + 2);
  std::cout << std::left << std::setw(10) << "engine" << std::setw(11) << "CPU fixed" << std::setw(11)
            << "CPU /seq" << std::setw(11) << "CPU /token" << std::setw(13) << "launch/layer" << std::setw(12)
            << "graph/layer" << std::setw(13) << "graph tokens" << std::setw(9) << "overlap" << std::setw(12)
            << "API server" << std::setw(batching) << "batching"
            << "description\n";
  auto us = [](double s) { return format_quantity(s, Quantity::duration); };
  for (const auto& [name, e] : catalog.engines) {
    std::cout << std::setw(10) << name << std::setw(11) << us(e.cpu_fixed_s) << std::setw(11)
              << us(e.cpu_per_sequence_s) << std::setw(11) << us(e.cpu_per_token_s) << std::setw(13)
              << us(e.launch_gap_per_layer_s) << std::setw(12) << us(e.graph_gap_per_layer_s) << std::setw(13)
              << (std::to_string(e.graph_max_tokens) + (e.graph_mixed ? " mixed" : "")) << std::setw(9)
              << (e.overlap_cpu ? "yes" : "no") << std::setw(12) << us(e.api_server_s) << std::setw(batching)
              << e.scheduler << e.description << "\n";
  }
}

/// Each entry's name and description, then its parameters as a table aligned across entries.
template <class Product, class... Args>
void list_registered(const Registry<Product, Args...>& registry) {
  const std::vector<std::string> header{"parameter", "type", "range", "unit", "default"};
  std::vector<size_t> width(header.size(), 0);
  auto row_of = [](const ParamSpec& p) {
    return std::vector<std::string>{p.key, p.type_text(), p.range_text(), p.unit.empty() ? "-" : p.unit,
                                    p.default_text()};
  };
  for (size_t c = 0; c < header.size(); ++c) width[c] = header[c].size();
  for (const auto& entry : registry.entries()) {
    for (const auto& param : entry.params) {
      const auto row = row_of(param);
      for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
    }
  }
  const std::string indent(4, ' ');
  auto print_row = [&](const std::vector<std::string>& cells, const std::string& last) {
    std::cout << indent;
    for (size_t c = 0; c < cells.size(); ++c)
      std::cout << std::left << std::setw(static_cast<int>(width[c] + 2)) << cells[c];
    std::cout << last << "\n";
  };
  size_t name_width = 14;
  for (const auto& entry : registry.entries()) name_width = std::max(name_width, entry.name.size());
  for (const auto& entry : registry.entries()) {
    std::cout << std::left << std::setw(static_cast<int>(name_width + 2)) << entry.name << entry.description
              << "\n";
    if (entry.params.empty()) continue;
    print_row(header, "help");
    for (const auto& param : entry.params) print_row(row_of(param), param.help);
  }
}

class ListCommand : public Command {
 public:
  CLI::App* add_to(CLI::App& root) override {
    CLI::App* sub = root.add_subcommand(
        "list",
        "List hardware, models, engine presets, policies, routers, replica schedulers or cost models");
    sub->footer(
        "Policies, routers, schedulers and cost models are listed with the parameters their YAML block\n"
        "takes, e.g. policy: {name: overlap, max_staleness: 2}.\n\n"
        "Examples:\n  rlsim list hardware\n  rlsim list models\n  rlsim list policies");
    sub->add_option("what", what_, "What to list")
        ->required()
        ->check(CLI::IsMember(
            {"hardware", "models", "engines", "policies", "routers", "schedulers", "cost-models"}));
    return sub;
  }
  int run() override {
    if (what_ == "policies") {
      list_registered(PolicyRegistry::instance());
      return kExitOk;
    }
    if (what_ == "routers") {
      list_registered(RouterRegistry::instance());
      return kExitOk;
    }
    if (what_ == "schedulers") {
      list_registered(ReplicaSchedulerRegistry::instance());
      return kExitOk;
    }
    if (what_ == "cost-models") {
      list_registered(CostModelRegistry::instance());
      return kExitOk;
    }
    Catalog catalog = load_builtin_catalog();
    if (what_ == "hardware") list_hardware(catalog);
    if (what_ == "models") list_models(catalog);
    if (what_ == "engines") list_engines(catalog);
    return kExitOk;
  }

 private:
  std::string what_;
};

}  // namespace
RLSIM_REGISTER_COMMAND(ListCommand, "list", 90);
}  // namespace rlsim
