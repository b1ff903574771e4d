// Feasibility of a scenario's memory, checked as input: the rollout replicas (or AFD instances)
// and the training layout must fit their cards (models/memory/). A scenario that cannot fit is an
// InputError at the field to change, saying what needs how much against what the card has and
// the smallest fix. Also the per-pool figures `rlsim validate` prints.
#pragma once

#include <string>

#include "models/memory/inference_memory.h"
#include "models/memory/training_memory.h"
#include "sim/scenario/afd_spec.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/yaml_reader.h"

namespace rlsim {

/// An InputError that says a configuration does not fit in GPU memory (a sweep records it as a
/// row with fits_memory 0 under --skip-invalid).
class MemoryFitError : public InputError {
 public:
  using InputError::InputError;
};

/// The data-parallel degree training runs with: `colocated` over two pools trains on both.
int training_dp_in_use(const Scenario& s);
/// The training layout of `s` (TrainingSpec, the DP in use, the algorithm's extra models).
TrainingLayout training_layout(const Scenario& s);
/// Per-GPU memory of one rollout instance (for AFD instances: an attention GPU).
InferenceMemory rollout_memory(const Scenario& s);
/// Tokens of context a trajectory typically reaches (max_context_tokens, else prompt + turns × (output +
/// observation)).
double typical_context_tokens(const WorkloadSpec& w);

/// MemoryFitError at `rollout`'s tp (or afd) when a replica does not fit its cards.
void check_rollout_memory(const Scenario& s, const YamlReader& rollout);
/// MemoryFitError at `where` when one sequence of `tokens` (prompt and output of one call: the
/// least any request of the workload can need) is more than one instance's whole KV cache, so no
/// engine could ever run it. `what` says where the tokens came from.
void check_sequence_fits(const Scenario& s, double tokens, const std::string& what,
                         const SourceLocation& where);

/// MemoryFitError at `training`'s sharding when the layout does not fit its cards.
void check_training_memory(const Scenario& s, const YamlReader& training);

/// Sequences the busiest attention GPU of an AFD deployment holds: the batch split over the
/// micro-batches, each split over the attention GPUs (sim/afd/afd_plan.cpp), the first GPU's share.
int64_t afd_most_sequences_per_gpu(const AfdDeploymentSpec& d);
/// Per-GPU memory of an AFD deployment's attention side (weights, reserve, KV per token).
InferenceMemory afd_deployment_memory(const AfdScenario& s);
/// MemoryFitError at `afd`'s batch when an attention GPU's KV, or an FFN GPU's experts, do not fit.
void check_afd_memory(const AfdScenario& s, const YamlReader& afd);

/// Per pool: instances, KV capacity (tokens, sequences) and headroom; training memory per GPU.
std::string memory_summary(const Scenario& s);
/// The inference pool's part of that, for `rlsim validate` of an RL or a serving scenario: its
/// instances, memory per GPU, KV capacity in tokens and in sequences of `typical_tokens`, and
/// max_model_len; `role` names the pool ("rollout", "serve").
std::string inference_memory_summary(const Scenario& s, double typical_tokens, const std::string& role);

/// "61.0 GiB" (binary gigabytes, as nvidia-smi, vLLM and the datasheets' capacities count memory).
std::string gibibytes(double bytes);

}  // namespace rlsim
