// Ranking validation cases by how much of a setup they share (see case_nearness.h).
#include "tools/validation/case_nearness.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <functional>
#include <iterator>

#include "sim/scenario/catalog.h"

namespace rlsim {
namespace {

/// "H100", or "one of H20, H800" for a setup on several cards.
std::string cards_text(const std::set<std::string>& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
  return names.size() > 1 ? "one of " + text : text;
}

std::set<std::string> shared_cards(const SetupFingerprint& a, const SetupFingerprint& b) {
  std::set<std::string> shared;
  std::set_intersection(a.cards.begin(), a.cards.end(), b.cards.begin(), b.cards.end(),
                        std::inserter(shared, shared.begin()));
  return shared;
}

}  // namespace

SetupFingerprint fingerprint_of_resolved(const std::string& resolved_yaml) {
  const YAML::Node root = YAML::Load(resolved_yaml);
  SetupFingerprint f;
  if (root["kind"]) f.kind = root["kind"].as<std::string>();
  if (root["model"]) f.model = root["model"].as<std::string>();
  if (const YAML::Node pools = root["cluster"]["pools"]) {
    for (const auto& pool : pools) {
      if (pool["gpu"]) f.cards.insert(pool["gpu"].as<std::string>());
    }
  }
  return f;
}

SetupFingerprint fingerprint_of_op(const OpCase& op) { return {"kernel", "", {op.hardware}}; }

std::set<std::string> models_sharing_layers(const std::string& model) {
  const Catalog catalog = load_builtin_catalog();
  const auto found = catalog.models.find(model);
  if (found == catalog.models.end()) return {model};
  std::set<std::string> names;
  for (const auto& [name, arch] : catalog.models)
    if (arch.same_layers(found->second)) names.insert(name);
  return names;
}

NearestCases nearest_cases(const SetupFingerprint& setup, const std::vector<SetupFingerprint>& cases,
                           const std::set<std::string>& same_layers) {
  struct Tier {
    std::function<bool(const SetupFingerprint&)> holds;
    std::string criterion;
  };
  const std::set<std::string> models = same_layers.empty() ? std::set<std::string>{setup.model} : same_layers;
  const auto same_model = [&](const SetupFingerprint& c) {
    return !c.model.empty() && models.count(c.model) > 0;
  };
  const auto shares_card = [&](const SetupFingerprint& c) { return !shared_cards(setup, c).empty(); };
  const auto same_kind = [&](const SetupFingerprint& c) { return c.kind == setup.kind; };
  std::string model = "model " + setup.model;
  if (models.size() > 1) {
    std::vector<std::string> others;
    for (const std::string& name : models)
      if (name != setup.model) others.push_back(name);
    model += " or its layers (";
    for (size_t i = 0; i < others.size(); ++i) model += (i > 0 ? ", " : "") + others[i];
    model += ")";
  }
  const std::string cards = cards_text(setup.cards);
  const std::vector<Tier> tiers = {
      {[&](const SetupFingerprint& c) { return same_model(c) && shares_card(c) && same_kind(c); },
       model + " on " + cards + ", kind " + setup.kind},
      {[&](const SetupFingerprint& c) { return same_model(c) && shares_card(c); }, model + " on " + cards},
      {[&](const SetupFingerprint& c) { return shares_card(c) && same_kind(c); },
       "card " + cards + ", kind " + setup.kind + " (no case of " + model + " on it)"},
      {same_model, model + " (no case of it on " + cards + ")"},
      {shares_card, "card " + cards + " (no case of " + model + " or of kind " + setup.kind + " on it)"},
  };
  for (const Tier& tier : tiers) {
    NearestCases nearest{tier.criterion, {}};
    for (size_t i = 0; i < cases.size(); ++i) {
      if (tier.holds(cases[i])) nearest.cases.push_back(i);
    }
    if (!nearest.cases.empty()) return nearest;
  }
  return {};
}

}  // namespace rlsim
