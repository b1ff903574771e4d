// `rlsim roofline`: a card's ridge point per precision (--hardware), or a model's decode roofline
// (--model): Step-3-style per-token figures, and each module's FLOPs, bytes, arithmetic intensity
// and bound on a card; with a mixed pool (--hardware H800:16,H20:16) its weighted roofline
// (tools/cli/pool_roofline.h). Human-readable table by default, JSON with --json.
#include <iostream>
#include <nlohmann/json.hpp>

#include "models/arch_params.h"
#include "models/cost/roofline.h"
#include "models/ops/module_costs.h"
#include "models/review/decode_accounting.h"
#include "models/units.h"
#include "tools/cli/catalog_args.h"
#include "tools/cli/command.h"
#include "tools/cli/pool_roofline.h"
#include "tools/report/text_format.h"

namespace rlsim {
namespace {

using Json = nlohmann::ordered_json;

class RooflineCommand : public Command {
 public:
  CLI::App* add_to(CLI::App& root) override {
    CLI::App* sub =
        root.add_subcommand("roofline", "Ridge point of a card, or a model's decode roofline per module");
    sub->add_option("--hardware", hardware_,
                    "Card from the catalog (rlsim list hardware), or a mixed pool as CARD:COUNT,… "
                    "(H800:16,H20:16); default H100 with --model");
    sub->add_option("--precision", precision_,
                    "Compute precision of the card roofline (bf16, fp16, fp8, int8)");
    sub->add_option("--model", model_, "Model from the catalog (rlsim list models)");
    sub->add_option("--context", context_, "Tokens in the KV cache per sequence")
        ->check(CLI::Range(1, 1 << 24));
    sub->add_option("--batch", batch_, "Sequences decoded together (FFN/projection intensity grows with it)")
        ->check(CLI::Range(1, 1 << 20));
    sub->add_option("--kv-precision", kv_precision_, "KV-cache precision");
    sub->add_option("--weight-precision", weight_precision_, "Weight precision of the linear layers");
    sub->add_flag("--json", json_, "Print JSON instead of a table");
    sub->footer(
        "A card's ridge = peak FLOP/s / memory bandwidth: below it an op is memory-bound.\n"
        "With --model: per generated token at --context (Step-3 accounting: KV bytes, attention,\n"
        "linear and FFN FLOPs), then one decode iteration of --batch sequences per module.\n"
        "A mixed pool (--hardware H800:16,H20:16): its aggregate peak, bandwidth and ridge, the FLOP/s\n"
        "it attains by arithmetic intensity, and with --model where each module lands on it.\n\n"
        "Examples:\n"
        "  rlsim roofline --hardware H100 --precision bf16 --json\n"
        "  rlsim roofline --model step3 --hardware H20 --context 4096 --kv-precision fp8\n"
        "  rlsim roofline --hardware H800:16,H20:16 --model qwen3-8b --batch 64");
    return sub;
  }

  int run() override {
    const Catalog catalog = load_builtin_catalog();
    if (hardware_.find_first_of(":,") != std::string::npos) return pool_roofline(catalog);
    if (model_.empty()) {
      if (hardware_.empty()) {
        throw InputError(flag_location("roofline"),
                         "give --hardware H (a card's ridge) or --model M (a model's roofline)");
      }
      return card_roofline(catalog.card(hardware_, flag_location("--hardware")));
    }
    check_no_precision_with_model();
    return model_roofline(catalog.model(model_, flag_location("--model")),
                          catalog.card(hardware_.empty() ? "H100" : hardware_, flag_location("--hardware")));
  }

 private:
  int card_roofline(const HardwareSpec& card) const {
    const Precision p = precision_option(precision_.empty() ? "bf16" : precision_, "--precision");
    const auto ridge = ridge_point(card, p);
    if (!ridge) {
      std::string has;
      for (const auto& [precision, peak] : card.peak_flops)
        has += (has.empty() ? "" : ", ") + std::string(to_string(precision));
      throw InputError(
          flag_location("--precision"),
          "card '" + card.name + "' has no " + std::string(to_string(p)) + " tensor path; it has: " + has);
    }
    if (json_) {
      Json out;
      out["hardware"] = card.name;
      out["precision"] = std::string(to_string(p));
      out["peak_flops"] = *card.peak(p);
      out["mem_bw_bytes_per_s"] = card.mem_bw_bytes_per_s;
      out["ridge_flop_per_byte"] = *ridge;
      std::cout << out.dump(2) << "\n";
      return kExitOk;
    }
    std::cout << card.name << " (" << card.description << "), memory bandwidth "
              << format_quantity(card.mem_bw_bytes_per_s, Quantity::bandwidth) << "\n"
              << padded("precision", 11) << padded("peak", 14) << "ridge (FLOP/byte)\n";
    for (const auto& [precision, peak] : card.peak_flops) {
      std::cout << padded(std::string(to_string(precision)) + (precision == p ? " *" : ""), 11)
                << padded(format_quantity(peak, Quantity::flop_rate), 14)
                << fixed(peak / card.mem_bw_bytes_per_s, 1) << "\n";
    }
    std::cout << "Ops with arithmetic intensity below the ridge are memory-bound on this card.\n";
    return kExitOk;
  }

  void check_no_precision_with_model() const {
    if (!precision_.empty()) {
      throw InputError(
          flag_location("--precision"),
          "--precision sets a card roofline; with --model use --weight-precision and --kv-precision");
    }
  }

  /// One decode iteration of --batch sequences at --context, at the flags' precisions.
  ForwardPass decode_pass() const {
    ForwardPass pass;
    pass.kind = PassKind::decode;
    pass.sequences = batch_;
    pass.context_before = context_ - 1;  // the new token makes the cache `context_` long
    pass.weights = precision_option(weight_precision_, "--weight-precision");
    pass.kv = precision_option(kv_precision_, "--kv-precision");
    return pass;
  }

  int pool_roofline(const Catalog& catalog) const {
    const std::vector<PoolMember> members = pool_members_option(catalog, hardware_, "--hardware");
    std::vector<ModuleCost> modules;
    std::string model_line;
    Precision p = precision_option(precision_.empty() ? "bf16" : precision_, "--precision");
    if (!model_.empty()) {
      check_no_precision_with_model();
      const ModelArch arch = catalog.model(model_, flag_location("--model"));
      const ForwardPass pass = decode_pass();
      modules = module_costs(arch, pass);
      p = pass.weights;
      model_line = arch.name + " decode iteration: batch " + std::to_string(batch_) + ", context " +
                   std::to_string(context_) + ", weights " + std::string(to_string(pass.weights)) + ", KV " +
                   std::string(to_string(pass.kv));
    }
    const WeightedRoofline pool = weighted_roofline(members, p);
    std::cout << (json_ ? pool_roofline_json(pool, model_, modules)
                        : pool_roofline_text(pool, model_line, modules));
    return kExitOk;
  }

  int model_roofline(const ModelArch& arch, const HardwareSpec& card) const {
    const ForwardPass pass = decode_pass();
    const Precision kv = pass.kv;
    const Precision weights = pass.weights;
    const DecodeTokenCost per_token = decode_token_cost(arch, static_cast<double>(context_), kv);
    const std::vector<ModuleCost> modules = module_costs(arch, pass);
    const double ridge = effective_ridge_point(card, effective_compute_precision(card, weights));
    if (json_) {
      Json out;
      out["model"] = arch.name;
      out["context"] = context_;
      out["kv_precision"] = std::string(to_string(kv));
      out["weight_precision"] = std::string(to_string(weights));
      out["hardware"] = card.name;
      out["batch"] = batch_;
      out["ridge_flop_per_byte"] = ridge;
      out["per_token"] = {{"kv_bytes", per_token.kv_bytes},
                          {"attention_flops", per_token.attention_flops},
                          {"linear_flops", per_token.linear_flops},
                          {"ffn_flops", per_token.ffn_flops}};
      out["attention_arithmetic_intensity"] = per_token.attention_arithmetic_intensity();
      Json list = Json::array();
      for (const ModuleCost& m : modules) {
        list.push_back({{"name", m.name},
                        {"flops", m.flops},
                        {"bytes", m.bytes},
                        {"arithmetic_intensity", m.arithmetic_intensity()},
                        {"bound", std::string(to_string(m.bound_on(card)))}});
      }
      out["modules"] = list;
      std::cout << out.dump(2) << "\n";
      return kExitOk;
    }
    std::cout << arch.name << " decode roofline on " << card.name << ": context " << context_ << ", batch "
              << batch_ << ", weights " << to_string(weights) << ", KV " << to_string(kv) << " (ridge "
              << fixed(ridge, 1) << " FLOP/byte at " << to_string(effective_compute_precision(card, weights))
              << ")\n\n"
              << "Per generated token (Step-3 accounting, all " << arch.layers << " layers):\n"
              << "  KV bytes read      " << format_quantity(per_token.kv_bytes, Quantity::bytes) << "\n"
              << "  attention FLOPs    " << fixed(per_token.attention_flops / 1e9, 2) << " GFLOP\n"
              << "  linear FLOPs       " << fixed(per_token.linear_flops / 1e9, 2)
              << " GFLOP (attention projections)\n"
              << "  FFN FLOPs          " << fixed(per_token.ffn_flops / 1e9, 2) << " GFLOP (activated)\n"
              << "  attention AI       " << fixed(per_token.attention_arithmetic_intensity(), 1)
              << " FLOP/byte, at any batch and context\n\n"
              << "One decode iteration, per module:\n"
              << padded("module", 16) << padded("GFLOP", 12) << padded("MB", 12) << padded("AI", 10)
              << "bound\n";
    for (const ModuleCost& m : modules) {
      std::cout << padded(m.name, 16) << padded(fixed(m.flops / 1e9, 3), 12)
                << padded(fixed(m.bytes / 1e6, 1), 12) << padded(fixed(m.arithmetic_intensity(), 1), 10)
                << to_string(m.bound_on(card)) << "\n";
    }
    const double sparsity = moe_sparsity(arch);
    std::cout << "\nFFN weights become compute-bound on " << card.name << " at a batch of about "
              << fixed(ridge * bytes_per_element(weights) / (2.0 * sparsity), 0) << " tokens"
              << (arch.ffn.is_moe() ? " (MoE sparsity " + fixed(sparsity, 3) + ")" : std::string()) << ".\n";
    return kExitOk;
  }

  std::string hardware_, precision_, model_;
  int64_t context_ = 4096;
  int64_t batch_ = 1;
  std::string kv_precision_ = "bf16";
  std::string weight_precision_ = "bf16";
  bool json_ = false;
};

}  // namespace
RLSIM_REGISTER_COMMAND(RooflineCommand, "roofline", 50);
}  // namespace rlsim
