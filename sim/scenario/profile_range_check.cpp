// The engine terms' fitted range against an inference block's batch, TP and max_model_len, or
// against one priced iteration.
#include "sim/scenario/profile_range_check.h"

namespace rlsim {

std::vector<std::string> engine_range_notes(const EngineUse& use, const std::string& card,
                                            const HardwareProfile& profile) {
  const EngineFitRange& r = profile.engine_range;
  if (r.empty() || profile.card != card) return {};
  std::vector<std::string> notes;
  if (use.batch > r.batch_max)
    notes.push_back(use.batch_field + " " + std::to_string(use.batch) + " (fitted up to batch " +
                    std::to_string(r.batch_max) + ")");
  if (use.tp < r.tp_min || use.tp > r.tp_max)
    notes.push_back(use.tp_field + " " + std::to_string(use.tp) + " (fitted on TP " +
                    std::to_string(r.tp_min) + " to " + std::to_string(r.tp_max) + ")");
  if (use.context > r.context_max)
    notes.push_back(use.context_field + " " + std::to_string(use.context) + " (fitted up to " +
                    std::to_string(r.context_max) + " tokens)");
  return notes;
}

std::vector<std::string> engine_range_notes(const RolloutSpec& spec, const std::string& block,
                                            const std::string& card, const HardwareProfile& profile) {
  return engine_range_notes({spec.max_batch, spec.tp, spec.max_model_len, block + ".max_batch", block + ".tp",
                             block + ".max_model_len"},
                            card, profile);
}

}  // namespace rlsim
