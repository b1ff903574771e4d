// `rlsim review`: the co-design review of a model on candidate cards (models/review/design_review.h) —
// ridge and module bounds per card, Step-3 decode cost per 1M tokens, AFD batch limits and minimum
// MoE sparsity, recommended attention and FFN cards, quantisation side by side, and a verdict.
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>

#include "models/arch_params.h"
#include "models/review/design_review.h"
#include "models/units.h"
#include "tools/cli/catalog_args.h"
#include "tools/cli/command.h"
#include "tools/report/text_format.h"

namespace rlsim {
namespace {

using Json = nlohmann::ordered_json;

Json cost_json(const DecodePricePerMillion& c) {
  return {{"attention", c.attention_usd}, {"ffn", c.ffn_usd}, {"total", c.total_usd()}};
}

Json review_json(const ModelArch& arch, const DesignReview& r) {
  Json out;
  out["model"] = r.model;
  out["context"] = r.options.context;
  out["tpot_s"] = r.options.tpot_s;
  out["kv_precision"] = std::string(to_string(r.options.kv));
  out["weight_precision"] = std::string(to_string(r.options.weights));
  out["total_params"] = total_params(arch);
  out["active_params"] = active_params(arch);
  out["per_token"] = {{"kv_bytes", r.per_token.kv_bytes},
                      {"attention_flops", r.per_token.attention_flops},
                      {"linear_flops", r.per_token.linear_flops},
                      {"ffn_flops", r.per_token.ffn_flops}};
  out["attention_arithmetic_intensity"] = r.per_token.attention_arithmetic_intensity();
  out["moe_sparsity"] = r.moe_sparsity;
  Json cards = Json::object();
  for (const CardReview& c : r.cards) {
    Json modules = Json::array();
    for (const ModuleAssessment& m : c.modules) {
      modules.push_back({{"name", m.name},
                         {"arithmetic_intensity", m.arithmetic_intensity},
                         {"bound", std::string(to_string(m.bound))},
                         {"compute_utilisation", m.compute_utilisation}});
    }
    cards[c.card] = {
        {"compute_precision", std::string(to_string(c.compute_precision))},
        {"ridge", c.ridge},
        {"modules", modules},
        {"cost_per_1m_tokens", cost_json(c.cost_per_1m_tokens)},
        {"afd_min_sparsity", c.afd.min_sparsity},
        {"afd_feasible", c.afd.feasible()},
        {"afd_batch", {{"min_ffn", c.afd.min_batch_ffn}, {"max_network", c.afd.max_batch_network}}}};
  }
  out["cards"] = cards;
  out["recommended"] = {{"attention", r.attention_card}, {"ffn", r.ffn_card}};
  out["afd_cost_per_1m_tokens"] = cost_json(r.afd_cost);
  out["best_single_card"] = {{"card", r.best_single_card},
                             {"cost_per_1m_tokens", cost_json(r.best_single_cost)}};
  Json quantisation = Json::array();
  for (const QuantisationRow& q : r.quantisation) {
    Json bounds = Json::object(), batches = Json::object();
    for (const auto& [card, bound] : q.attention_bound) bounds[card] = std::string(to_string(bound));
    for (const auto& [card, batch] : q.ffn_min_batch) batches[card] = batch;
    quantisation.push_back({{"precision", std::string(to_string(q.precision))},
                            {"kv_bytes_per_token", q.kv_bytes_per_token},
                            {"attention_arithmetic_intensity", q.attention_arithmetic_intensity},
                            {"attention_bound", bounds},
                            {"ffn_min_batch", batches}});
  }
  out["quantisation"] = quantisation;
  std::string verdict;
  for (const std::string& sentence : r.verdict) verdict += (verdict.empty() ? "" : " ") + sentence;
  out["verdict"] = verdict;
  return out;
}

void print_report(const ModelArch& arch, const DesignReview& r) {
  const ReviewOptions& o = r.options;
  const AttentionConfig& a = arch.attention;
  std::cout << "Co-design review: " << arch.name << " decoding at " << fixed(o.context, 0) << " context, "
            << fixed(o.tpot_s * 1e3, 0) << " ms TPOT, KV " << to_string(o.kv) << ", weights "
            << to_string(o.weights) << "\n\nModel: " << fixed(total_params(arch) / 1e9, 1) << "B total, "
            << fixed(active_params(arch) / 1e9, 1) << "B active; " << attention_kind_label(a.kind) << " "
            << a.q_heads << " query heads, KV " << fixed(kv_bytes_per_token(arch, o.kv) / 1024.0, 1)
            << " KiB/token";
  if (arch.ffn.is_moe()) {
    std::cout << "; MoE " << arch.ffn.routed_experts << " experts top-" << arch.ffn.experts_per_token << " + "
              << arch.ffn.shared_experts << " shared (sparsity " << fixed(r.moe_sparsity, 3) << ")";
  }
  std::cout << "\nPer token: KV " << format_quantity(r.per_token.kv_bytes, Quantity::bytes) << ", attention "
            << fixed(r.per_token.attention_flops / 1e9, 1) << " GFLOP, linear "
            << fixed(r.per_token.linear_flops / 1e9, 1) << " GFLOP, FFN "
            << fixed(r.per_token.ffn_flops / 1e9, 1) << " GFLOP; attention AI "
            << fixed(r.per_token.attention_arithmetic_intensity(), 1) << " FLOP/byte\n\n";

  std::cout << "Per card (modules at the largest batch the TPOT allows; % = compute utilisation):\n"
            << padded("card", 12) << padded("ridge", 12) << padded("attention", 13)
            << padded("attn-linear", 13) << padded("ffn", 13) << padded("$/1M attn", 11)
            << padded("$/1M ffn", 10) << padded("AFD batch", 14) << "min sparsity\n";
  for (const CardReview& c : r.cards) {
    std::cout << padded(c.card, 12)
              << padded(fixed(c.ridge, 0) + " " + std::string(to_string(c.compute_precision)), 12);
    for (const ModuleAssessment& m : c.modules) {
      std::cout << padded(std::string(m.bound == Bound::memory ? "mem " : "comp ") +
                              fixed(m.compute_utilisation * 100, 0) + "%",
                          13);
    }
    std::cout << padded(fixed(c.cost_per_1m_tokens.attention_usd, 4), 11)
              << padded(fixed(c.cost_per_1m_tokens.ffn_usd, 4), 10)
              << padded(fixed(c.afd.min_batch_ffn, 0) + "-" + fixed(c.afd.max_batch_network, 0), 14)
              << fixed(c.afd.min_sparsity, 3) << (c.afd.feasible() ? " ok" : " too sparse") << "\n";
  }
  std::cout << "\nRecommended: attention on " << r.attention_card << ", FFN on " << r.ffn_card << ": $"
            << fixed(r.afd_cost.total_usd(), 4) << " per 1M tokens (best single card " << r.best_single_card
            << ": $" << fixed(r.best_single_cost.total_usd(), 4) << ")\n\n";

  std::cout << "Quantisation side by side (KV and weights at one precision):\n"
            << padded("precision", 11) << padded("KV/token", 12) << padded("attn AI", 9);
  for (const CardReview& c : r.cards) std::cout << padded(c.card + " attn/FFN batch", 24);
  std::cout << "\n";
  for (const QuantisationRow& q : r.quantisation) {
    std::cout << padded(std::string(to_string(q.precision)), 11)
              << padded(format_quantity(q.kv_bytes_per_token, Quantity::bytes), 12)
              << padded(fixed(q.attention_arithmetic_intensity, 0), 9);
    for (const CardReview& c : r.cards) {
      std::cout << padded(
          std::string(to_string(q.attention_bound.at(c.card))) + " / " + fixed(q.ffn_min_batch.at(c.card), 0),
          24);
    }
    std::cout << "\n";
  }
  std::cout << "\nVerdict:\n";
  for (const std::string& sentence : r.verdict) std::cout << "  - " << sentence << "\n";
}

class ReviewCommand : public Command {
 public:
  CLI::App* add_to(CLI::App& root) override {
    CLI::App* sub =
        root.add_subcommand("review", "Co-design review: which card suits which module, AFD limits, cost");
    sub->add_option("--model", model_, "Model from the catalog (rlsim list models)")->required();
    sub->add_option("--hardware", hardware_, "Comma-separated cards to compare, e.g. H800,H20")->required();
    sub->add_option("--context", context_, "Tokens in the KV cache per sequence")
        ->check(CLI::Range(1, 1 << 24));
    // CLI11's Range lets NaN through (every comparison with it is false): check it first.
    const CLI::Validator finite(
        [](const std::string& text) {
          return std::isfinite(std::strtod(text.c_str(), nullptr))
                     ? std::string()
                     : "expected a finite number, got '" + text + "'";
        },
        "FINITE");
    sub->add_option("--tpot-ms", tpot_ms_, "Target time per output token, milliseconds")
        ->check(finite)
        ->check(CLI::Range(0.001, 1e6));
    sub->add_option("--kv-precision", kv_precision_, "KV-cache precision (Step-3's accounting uses fp8)");
    sub->add_option("--weight-precision", weight_precision_, "Weight precision of linear layers and experts");
    sub->add_option("--gpus-per-node", gpus_per_node_, "GPUs (and NICs) per AFD FFN node")
        ->check(CLI::Range(1, 1024));
    sub->add_flag("--json", json_, "Print JSON instead of the report");
    sub->footer(
        "Costs follow the Step-3 paper (arXiv 2507.19427): a card's price buys FLOPs at its fp8 peak\n"
        "(bf16 where it has no fp8) and bytes at its HBM bandwidth; AFD pairs the cheapest attention\n"
        "card with the cheapest FFN card that stays compute-bound within the TPOT budget.\n\n"
        "Example:\n"
        "  rlsim review --model step3 --hardware H800,H20,A800,Ascend910B --context 4096 --tpot-ms 50");
    return sub;
  }

  int run() override {
    const Catalog catalog = load_builtin_catalog();
    const ModelArch& arch = catalog.model(model_, flag_location("--model"));
    const std::vector<HardwareSpec> cards = card_list_option(catalog, hardware_, "--hardware");
    for (const HardwareSpec& card : cards) {
      if (card.nic_bw_bytes_per_s <= 0 || card.usd_per_hour <= 0) {
        throw InputError(flag_location("--hardware"),
                         "card '" + card.name + "' needs a NIC bandwidth and a price for the review");
      }
    }
    ReviewOptions options;
    options.context = static_cast<double>(context_);
    options.tpot_s = tpot_ms_ / 1e3;
    options.kv = precision_option(kv_precision_, "--kv-precision");
    options.weights = precision_option(weight_precision_, "--weight-precision");
    options.gpus_per_node = gpus_per_node_;
    const DesignReview review = review_design(arch, cards, options);
    if (json_) {
      std::cout << review_json(arch, review).dump(2) << "\n";
    } else {
      print_report(arch, review);
    }
    return kExitOk;
  }

 private:
  std::string model_, hardware_;
  int64_t context_ = 4096;
  double tpot_ms_ = 50.0;
  std::string kv_precision_ = "fp8";
  std::string weight_precision_ = "fp8";
  int gpus_per_node_ = 8;
  bool json_ = false;
};

}  // namespace
RLSIM_REGISTER_COMMAND(ReviewCommand, "review", 60);
}  // namespace rlsim
