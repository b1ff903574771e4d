// How a run's figures were priced, in a summary's words and in metrics.json.
#include "tools/report/pricing_text.h"

#include <algorithm>
#include <filesystem>
#include <vector>

#include "models/cost/roofline.h"

namespace rlsim {

std::string profile_file(const std::string& profile) {
  return std::filesystem::path(profile).filename().string();
}

std::string cost_model_text(const std::string& cost_model, const std::string& profile) {
  return cost_model + (profile.empty() ? "" : " " + profile_file(profile));
}

std::string pricing_text(const Scenario& scenario, const std::string& cost_model, const PriceTally& prices) {
  std::string out = cost_model_text(cost_model, scenario.profile) + "; ops priced:";
  std::string classes;
  for (const auto& [op_class, answers] : prices) {
    std::string counts;
    for (const char* answer : {"measured", "interpolated", "fitted", "datasheet"}) {
      if (auto it = answers.find(answer); it != answers.end())
        counts += (counts.empty() ? "" : ", ") + std::to_string(it->second) + " " + answer;
    }
    classes += (classes.empty() ? " " : "; ") + op_class + " " + counts;
  }
  std::string outside;
  for (const std::string& note : scenario.profile_range_notes)
    outside += (outside.empty() ? "" : ", ") + note;
  return out + (classes.empty() ? " none" : classes) +
         (outside.empty() ? "" : "; the profile's engine terms extrapolate at " + outside);
}

nlohmann::json pricing_json(const Scenario& scenario, const std::string& cost_model,
                            const PriceTally& prices) {
  nlohmann::json j = {
      {"cost_model", cost_model}, {"profile", profile_file(scenario.profile)}, {"ops_priced", prices}};
  if (!scenario.profile_range_notes.empty()) j["outside_fitted_range"] = scenario.profile_range_notes;
  return j;
}

std::string pricing_basis_line(const Scenario& scenario, const std::string& profile_card) {
  std::vector<std::string> datasheet;
  std::string profiled;
  for (const auto& pool : scenario.cluster.pools) {
    const std::string& card = pool.card.name;
    if (!scenario.profile.empty() && card == profile_card) {
      profiled = card + ": profile " + profile_file(scenario.profile);
    } else if (std::find(datasheet.begin(), datasheet.end(), card) == datasheet.end()) {
      datasheet.push_back(card);
    }
  }
  std::string line = profiled;
  if (!datasheet.empty()) {
    std::string cards;
    for (const std::string& card : datasheet) cards += (cards.empty() ? "" : ", ") + card;
    line += (line.empty() ? "" : "; ") + cards +
            ": the datasheet roofline (no calibrated profile; rlsim calibrate makes one)";
  }
  return "  priced by: " + line + "\n";
}

std::string weight_only_note(const HardwareSpec& card, Precision weights) {
  const Precision multiplied = effective_compute_precision(card, weights);
  if (multiplied == weights) return "";
  const std::string w(to_string(weights));
  if (bytes_per_element(weights) > 2.0) {
    // No catalog card lists an fp32 (or TF32) peak: the 16-bit one bounds the math from below.
    return w + " weights on " + card.name + ", whose " + w +
           " peak the catalog does not list: multiplied at its " + std::string(to_string(multiplied)) +
           " peak, an optimistic bound (" + w + " math runs slower)";
  }
  // vLLM runs fp8 checkpoints on cards without fp8 tensor cores as W8A16 with its FP8 Marlin
  // kernels (docs.vllm.ai, features/quantization/fp8: "FP8 models will run on compute capability
  // >= 7.5 (Turing) as weight-only W8A16"); int4 is weight-only everywhere (models/precision.h).
  return w + " weights on " + card.name + ", which has no " + w + " peak: stored as " + w +
         ", multiplied at its " + std::string(to_string(multiplied)) +
         " peak (weight-only, as vLLM's Marlin kernels run them)";
}

}  // namespace rlsim
