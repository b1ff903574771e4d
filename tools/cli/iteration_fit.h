// Refusing an iteration no engine could run (`rlsim cost prefill|decode`): a TP group whose weights
// leave no room for KV, or a batch whose KV is more than the group's cache holds. The memory is a
// scenario instance's (models/memory/inference_memory.h, the default activation reserve), so
// `cost` refuses what `run` and `validate` refuse.
#pragma once

#include <cstdint>
#include <string>

#include "models/hardware.h"
#include "models/model_arch.h"
#include "models/precision.h"

namespace rlsim {

/// What one iteration asks of an instance's memory.
struct IterationFootprint {
  int tp = 1;
  int pp = 1;
  Precision weights = Precision::bf16;
  Precision kv = Precision::bf16;
  int64_t batch = 1;
  int64_t tokens_per_sequence = 0;  ///< KV each sequence holds by the iteration's end
  std::string tokens_made_of;       ///< what they are, for messages: "context + prompt"
};

/// InputError at the flag to change (--tp, --pp, --batch) when `f` does not fit `card`'s memory,
/// saying what needs how much against what the card has and the smallest fix.
void check_iteration_fits(const ModelArch& model, const HardwareSpec& card, const IterationFootprint& f);

}  // namespace rlsim
