// `rlsim import verl`: a verl trainer config (VerlConfig) turned into an rlsim scenario, each field
// commented with the verl key it comes from. What a verl config does not hold (the card, the
// lengths' distributions, the network) is marked ASSUMED; the verl settings rlsim does not model
// (parameter offload, dynamic micro-batch budgets, Ulysses sequence parallelism)
// are listed as not mapped. A key the config does not set reads as verl's default (verl's
// ppo_trainer.yaml at b178a3c, 2026-01-29; rollout.max_num_seqs and enforce_eager changed over the
// versions and are named in the output when taken from the default).
#pragma once

#include <string>
#include <vector>

#include "sim/scenario/catalog.h"
#include "sim/scenario/verl_config.h"

namespace rlsim {

struct ImportedScenario {
  std::string yaml;                     ///< the scenario, ready to run
  std::string model_reading;            ///< how the model path was read, e.g. "Qwen/Qwen2-7B-Instruct -> ..."
  std::vector<std::string> assumed;     ///< scenario fields no verl key gives
  std::vector<std::string> not_mapped;  ///< verl settings rlsim does not model, as `key=value: why`
};

struct VerlImportOptions {
  std::string card;   ///< the GPUs' catalog name (a verl config does not say)
  std::string model;  ///< a catalog model to use instead of reading actor_rollout_ref.model.path
  std::string name;   ///< the scenario's name
};

/// InputError at the verl key whose value rlsim cannot take (a rollout engine it has no preset
/// for, a model path no catalog model matches, a mini-batch that does not divide the batch).
ImportedScenario import_verl(const VerlConfig& config, const Catalog& catalog,
                             const VerlImportOptions& options);

}  // namespace rlsim
