// Building the co-design review and its verdict (see design_review.h).
#include "models/review/design_review.h"

#include <algorithm>
#include <cassert>
#include <cstdio>

#include "models/arch_params.h"

namespace rlsim {
namespace {

std::string number(double value, int significant = 3) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*g", significant, value);
  return text;
}

std::string whole(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", value);
  return text;
}

std::string usd(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "$%.3f", value);
  return text;
}

std::string list(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
  }
  return out;
}

ModuleAssessment assess(std::string name, double ai, double ridge) {
  ModuleAssessment m;
  m.name = std::move(name);
  m.arithmetic_intensity = ai;
  m.bound = classify(ai, ridge);
  m.compute_utilisation = std::min(1.0, ai / ridge);
  return m;
}

CardReview review_card(const ModelArch& arch, const HardwareSpec& card, const DecodeTokenCost& per_token,
                       const ReviewOptions& options) {
  CardReview r;
  r.card = card.name;
  r.compute_precision = decode_cost_precision(card);
  r.ridge = effective_ridge_point(card, r.compute_precision);
  AfdOptions afd;
  afd.tpot_s = options.tpot_s;
  afd.gpus_per_node = options.gpus_per_node;
  afd.weight_bytes_per_element = bytes_per_element(options.weights);
  r.afd = afd_limits(arch, card, afd);
  const double batch = r.afd.max_batch_network, weight_bytes = bytes_per_element(options.weights);
  r.modules.push_back(assess("attention", per_token.attention_arithmetic_intensity(), r.ridge));
  r.modules.push_back(assess("attention_linear", 2.0 * batch / weight_bytes, r.ridge));
  r.modules.push_back(assess("ffn", 2.0 * batch * moe_sparsity(arch) / weight_bytes, r.ridge));
  r.cost_per_1m_tokens = decode_price_per_million(per_token, card);
  return r;
}

std::vector<QuantisationRow> quantisation_rows(const ModelArch& arch, const std::vector<HardwareSpec>& cards,
                                               const ReviewOptions& options) {
  std::vector<QuantisationRow> rows;
  // fp4 (NVFP4) only when a card has FP4 tensor cores (Blackwell): elsewhere int4 says the same.
  const bool fp4_cards = std::any_of(
      cards.begin(), cards.end(), [](const HardwareSpec& c) { return c.peak(Precision::fp4).has_value(); });
  for (Precision p : {Precision::bf16, Precision::fp8, Precision::int4, Precision::fp4}) {
    if (p == Precision::fp4 && !fp4_cards) continue;
    QuantisationRow row;
    row.precision = p;
    const DecodeTokenCost t = decode_token_cost(arch, options.context, p);
    row.kv_bytes_per_token = t.kv_bytes;
    row.attention_arithmetic_intensity = t.attention_arithmetic_intensity();
    for (const HardwareSpec& card : cards) {
      // Attention math runs at the KV precision where the card has that path (fp8 FlashMLA-style
      // kernels), else in 16 bit; int4 weights are dequantised to 16 bit (W4A16), fp4 runs at the
      // FP4 peak where the card has one.
      row.attention_bound[card.name] =
          classify(row.attention_arithmetic_intensity, effective_ridge_point(card, p));
      row.ffn_min_batch[card.name] =
          effective_ridge_point(card, p) * bytes_per_element(p) / (2.0 * moe_sparsity(arch));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<std::string> names_where(const std::vector<CardReview>& cards, const std::string& module,
                                     Bound bound) {
  std::vector<std::string> names;
  for (const CardReview& c : cards) {
    for (const ModuleAssessment& m : c.modules) {
      if (m.name == module && m.bound == bound) names.push_back(c.card + " (ridge " + number(c.ridge) + ")");
    }
  }
  return names;
}

void write_verdict(const ModelArch& arch, DesignReview& review) {
  const ReviewOptions& o = review.options;
  const DecodeTokenCost& t = review.per_token;
  std::vector<std::string>& v = review.verdict;
  const std::string kv_kib = number(kv_bytes_per_token(arch, o.kv) / 1024.0);
  std::string attention = "Attention (" + std::string(attention_kind_label(arch.attention.kind)) + ", " +
                          kv_kib + " KiB of " + std::string(to_string(o.kv)) +
                          " KV per token) has arithmetic intensity " +
                          number(t.attention_arithmetic_intensity()) + " FLOP/byte at any batch and context";
  const auto compute = names_where(review.cards, "attention", Bound::compute);
  const auto memory = names_where(review.cards, "attention", Bound::memory);
  if (!compute.empty()) attention += "; it is compute-bound on " + list(compute);
  if (!memory.empty())
    attention += (compute.empty() ? "; it is memory-bound on " : ", memory-bound on ") + list(memory);
  v.push_back(attention + ".");

  std::string ffn;
  if (arch.ffn.is_moe()) {
    ffn = "MoE sparsity is " + number(review.moe_sparsity) + " (" +
          std::to_string(arch.ffn.experts_per_token) + " routed + " +
          std::to_string(arch.ffn.shared_experts) + " shared of " + std::to_string(arch.ffn.routed_experts) +
          " experts).";
  } else {
    ffn = "The FFN is dense (sparsity 1).";
  }
  std::vector<std::string> feasible, infeasible;
  for (const CardReview& c : review.cards) {
    if (c.afd.feasible()) {
      feasible.push_back(c.card + " (needs sparsity >= " + number(c.afd.min_sparsity) + "; batch " +
                         whole(c.afd.min_batch_ffn) + " to " + whole(c.afd.max_batch_network) + " tokens)");
    } else {
      infeasible.push_back(c.card + " (needs sparsity >= " + number(c.afd.min_sparsity) + ")");
    }
  }
  ffn += " At " + number(o.tpot_s * 1e3) + " ms TPOT an AFD FFN node can stay compute-bound on ";
  ffn += feasible.empty() ? "none of these cards" : list(feasible);
  if (!infeasible.empty()) ffn += "; not on " + list(infeasible) + ", where the network caps the batch first";
  v.push_back(ffn + ".");

  const CardReview* attention_card = nullptr;
  const CardReview* ffn_card = nullptr;
  for (const CardReview& c : review.cards) {
    if (c.card == review.attention_card) attention_card = &c;
    if (c.card == review.ffn_card) ffn_card = &c;
  }
  assert(attention_card && ffn_card && "recommended cards come from the reviewed ones");
  std::string pair = "Recommended AFD pair: attention on " + review.attention_card + " (" +
                     usd(attention_card->cost_per_1m_tokens.attention_usd) + " per 1M tokens), FFN on " +
                     review.ffn_card + " (" + usd(ffn_card->cost_per_1m_tokens.ffn_usd) + ")";
  if (!ffn_card->afd.feasible()) pair += ", although no card keeps this FFN compute-bound at the TPOT target";
  pair += ": " + usd(review.afd_cost.total_usd()) + " per 1M tokens at " + number(o.context, 6) +
          " context, against " + usd(review.best_single_cost.total_usd()) + " on the best single card (" +
          review.best_single_card + ")";
  const CardReview* cheapest_ffn = ffn_card;
  for (const CardReview& c : review.cards) {
    if (c.cost_per_1m_tokens.ffn_usd < cheapest_ffn->cost_per_1m_tokens.ffn_usd) cheapest_ffn = &c;
  }
  if (cheapest_ffn != ffn_card) {
    pair += "; the cheapest FFN card, " + cheapest_ffn->card + " (" +
            usd(cheapest_ffn->cost_per_1m_tokens.ffn_usd) +
            "), cannot keep its experts compute-bound within the TPOT budget at this sparsity";
  }
  if (review.afd_cost.total_usd() > review.best_single_cost.total_usd()) {
    pair += ", so disaggregation does not pay for this model on these cards";
  }
  v.push_back(pair + ".");

  const QuantisationRow* bf16 = nullptr;
  const QuantisationRow* fp8 = nullptr;
  for (const QuantisationRow& row : review.quantisation) {
    if (row.precision == Precision::bf16) bf16 = &row;
    if (row.precision == Precision::fp8) fp8 = &row;
  }
  if (bf16 && fp8) {
    std::string q = "Quantisation: an 8-bit KV cache halves KV bytes and doubles attention intensity (" +
                    number(bf16->attention_arithmetic_intensity) + " -> " +
                    number(fp8->attention_arithmetic_intensity) + " FLOP/byte)";
    std::vector<std::string> flipped, halved, unchanged;
    for (const CardReview& c : review.cards) {
      if (bf16->attention_bound.at(c.card) != fp8->attention_bound.at(c.card)) flipped.push_back(c.card);
      const double ratio = fp8->ffn_min_batch.at(c.card) / bf16->ffn_min_batch.at(c.card);
      (ratio < 0.75 ? halved : unchanged).push_back(c.card);
    }
    if (!flipped.empty()) q += ", which makes attention compute-bound on " + list(flipped);
    q += ".";
    if (!halved.empty()) {
      q += " 8-bit weights halve the batch an FFN needs to be compute-bound on " + list(halved) +
           " (no fp8 path: fewer bytes, same peak)";
    }
    if (!unchanged.empty()) {
      q += std::string(halved.empty() ? " 8-bit weights leave the FFN's compute-bound batch"
                                      : "; they leave it") +
           " unchanged on " + list(unchanged) + " (fp8 tensor cores double the peak as the bytes halve)";
    }
    v.push_back(q + ".");
  }
}

}  // namespace

DesignReview review_design(const ModelArch& arch, const std::vector<HardwareSpec>& cards,
                           const ReviewOptions& options) {
  assert(!cards.empty() && options.context > 0 && options.tpot_s > 0 &&
         "a review needs cards, a context and a TPOT");
  DesignReview review;
  review.model = arch.name;
  review.options = options;
  review.per_token = decode_token_cost(arch, options.context, options.kv);
  review.moe_sparsity = moe_sparsity(arch);
  for (const HardwareSpec& card : cards)
    review.cards.push_back(review_card(arch, card, review.per_token, options));

  const CardReview* best_attention = nullptr;
  const CardReview* best_ffn = nullptr;
  const CardReview* best_feasible_ffn = nullptr;
  const CardReview* best_single = nullptr;
  for (const CardReview& c : review.cards) {
    const DecodePricePerMillion& cost = c.cost_per_1m_tokens;
    if (!best_attention || cost.attention_usd < best_attention->cost_per_1m_tokens.attention_usd)
      best_attention = &c;
    if (!best_ffn || cost.ffn_usd < best_ffn->cost_per_1m_tokens.ffn_usd) best_ffn = &c;
    if (c.afd.feasible() &&
        (!best_feasible_ffn || cost.ffn_usd < best_feasible_ffn->cost_per_1m_tokens.ffn_usd)) {
      best_feasible_ffn = &c;
    }
    if (!best_single || cost.total_usd() < best_single->cost_per_1m_tokens.total_usd()) best_single = &c;
  }
  const CardReview* ffn = best_feasible_ffn ? best_feasible_ffn : best_ffn;
  review.attention_card = best_attention->card;
  review.ffn_card = ffn->card;
  review.afd_cost.attention_usd = best_attention->cost_per_1m_tokens.attention_usd;
  review.afd_cost.ffn_usd = ffn->cost_per_1m_tokens.ffn_usd;
  review.best_single_card = best_single->card;
  review.best_single_cost = best_single->cost_per_1m_tokens;
  review.quantisation = quantisation_rows(arch, cards, options);
  write_verdict(arch, review);
  return review;
}

}  // namespace rlsim
