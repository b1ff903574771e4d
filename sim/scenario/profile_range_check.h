// Where an inference pool would use its profile's engine terms outside the shapes they were fitted
// on (HardwareProfile::engine_range): a batch, TP degree or sequence length past what the
// measurements spanned extrapolates the terms. One note per field, naming it and what was fitted
// ("rollout.max_batch 256 (fitted up to batch 8)"), for the summary and metrics.json; nothing is
// refused (an extrapolation is the user's choice, said once per run).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/cost/profile.h"
#include "sim/scenario/scenario.h"

namespace rlsim {

/// The shapes at which engine terms are used, and the fields or flags that set them.
struct EngineUse {
  int64_t batch = 1;
  int tp = 1;
  int64_t context = 0;  ///< tokens of a sequence, prompt included
  std::string batch_field, tp_field, context_field;
};

/// Empty when the profile states no range or was measured on another card than `card`.
std::vector<std::string> engine_range_notes(const EngineUse& use, const std::string& card,
                                            const HardwareProfile& profile);
/// For an inference block: its max_batch, tp and max_model_len; `block` is its name as written
/// ("rollout", "serve").
std::vector<std::string> engine_range_notes(const RolloutSpec& spec, const std::string& block,
                                            const std::string& card, const HardwareProfile& profile);

}  // namespace rlsim
