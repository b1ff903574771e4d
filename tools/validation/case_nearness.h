// Which validation cases are nearest to a user's setup (`rlsim validation --near FILE`): a number
// rlsim prints is only as good as the closest validated case, so the user can run those cases and
// see how far rlsim was from the measurements there. A setup is reduced to its fingerprint — the
// scenario kind, the model and the catalog cards of its pools (an op case: "kernel", no model, its
// card) — and the cases are ranked in tiers, from the same model on a shared card and of the same
// kind down to only a shared card; the nearest non-empty tier is the answer.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "tools/validation/validation_manifest.h"

namespace rlsim {

struct SetupFingerprint {
  std::string kind;             ///< scenario kind (rl, serve, afd), or "kernel" for an op case
  std::string model;            ///< catalog model; empty for an op case
  std::set<std::string> cards;  ///< catalog cards of the pools (an op case: its card)

  bool operator==(const SetupFingerprint& other) const {
    return kind == other.kind && model == other.model && cards == other.cards;
  }
};

/// The fingerprint of a scenario from its resolved YAML (CheckedScenario::resolved_yaml()).
SetupFingerprint fingerprint_of_resolved(const std::string& resolved_yaml);
/// The fingerprint of a kernel-level case.
SetupFingerprint fingerprint_of_op(const OpCase& op);

struct NearestCases {
  std::string criterion;  ///< what the chosen cases share with the setup, e.g. "model llama-3-70b on H100"
  std::vector<size_t> cases;  ///< indices into the fingerprints given, in their order; empty: none near
};

/// The built-in catalog's models with the layers of `model` (ModelArch::same_layers, itself
/// included): a case of any of them validates the same costs. Just `model` when the catalog does
/// not hold it.
std::set<std::string> models_sharing_layers(const std::string& model);

/// The cases of the nearest tier that has any: (1) same model, a shared card and the same kind;
/// (2) same model and a shared card; (3) a shared card and the same kind; (4) the same model;
/// (5) a shared card. Empty when no case shares the model or a card. "Same model" is any of
/// `same_layers` (models_sharing_layers) when given, else the setup's model alone.
NearestCases nearest_cases(const SetupFingerprint& setup, const std::vector<SetupFingerprint>& cases,
                           const std::set<std::string>& same_layers = {});

}  // namespace rlsim
