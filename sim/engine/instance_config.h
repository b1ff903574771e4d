// InstanceConfig: what one inference instance is: the model on which cards, its parallelism and
// precisions, KV capacity, links, and which replica scheduler plans its iterations. The rollout
// service builds it from the scenario's RolloutSpec (rollout_service.cpp), so defaults that the
// scenario also has come from RolloutSpec{}. Also the KV-capacity arithmetic of a replica.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "models/cost/cost_model.h"
#include "models/cost/profile.h"
#include "models/hardware.h"
#include "models/model_arch.h"
#include "models/precision.h"
#include "models/registry/param_schema.h"
#include "models/timing/collectives.h"
#include "models/timing/decode_iteration_time.h"
#include "models/timing/engine_overhead.h"
#include "models/timing/tp_allreduce.h"
#include "sim/afd/afd_iteration_table.h"
#include "sim/engine/request.h"
#include "sim/engine/scheduling/prefill_first.h"
#include "sim/scenario/scenario.h"

namespace rlsim {

struct InstanceConfig {
  const ModelArch* model = nullptr;
  const HardwareSpec* card = nullptr;
  const CostModel* cost = nullptr;
  int tp = 1;
  int pp = 1;  ///< pipeline stages of tp GPUs each (models/timing/pipeline_parallel.h)
  int max_batch = RolloutSpec{}.max_batch;
  Precision weights = Precision::bf16;
  Precision kv = Precision::bf16;
  double kv_capacity_tokens = 0.0;  ///< KV slots of the whole group
  bool prefix_cache = true;
  bool swap_on_preempt = false;                                        ///< false: recompute
  double swap_bytes_per_s = RolloutSpec{}.swap_bandwidth_bytes_per_s;  ///< host link per GPU for KV swap
  LinkSpec stage_link;  ///< between consecutive pipeline stages (unused at pp 1)
  /// How the TP all-reduces are priced: the engine's own or NCCL as the scenario's calibrated
  /// profile measured them on this card, else a ring over the scale-up link.
  TpAllReduce tp_allreduce;
  double output_bytes_per_token = kWireBytesPerToken;  ///< reply payload (token ids)
  double restart_s = 0.0;                              ///< reloading after a fault is repaired
  /// The replica scheduler (sim/engine/scheduling/replica_scheduler.h) by registered name, and its
  /// parameters (unset: the entry's defaults).
  std::string scheduler = kPrefillFirstScheduler;
  std::optional<ParamValues> scheduler_params;
  /// The engine's time beyond kernels (CPU work, launch gaps); default: none ("ideal").
  EngineOverhead engine;
  /// Decode iteration times of this model on this card and TP (shared by the instances alike;
  /// unset for AFD instances).
  std::shared_ptr<const DecodeIterationTime> decode_cost;
  /// Set for an AFD instance: its decode iteration times, from the layer-level AFD simulation
  /// (they include the attention-FFN transfers; there is no TP all-reduce). Prefill is costed as
  /// on the attention GPUs as one TP group of `tp`.
  const AfdIterationTable* afd_table = nullptr;
  /// A calibrated RL run's pace (RlRunTerms::generation_efficiency): every iteration takes its
  /// modelled time over this.
  double generation_efficiency = 1.0;
};

/// KV slots left for the cache on a group of `tp` × `pp` cards after weights and an activation
/// reserve (`activation_fraction` of memory), as models/memory/inference_memory.h. Zero: it does
/// not fit.
double kv_capacity_tokens(const ModelArch& model, const HardwareSpec& card, int tp, int pp, Precision weights,
                          Precision kv, double activation_fraction);
/// The same for an AFD instance's `attention_gpus` cards, each holding the attention weights only.
double afd_kv_capacity_tokens(const ModelArch& model, const HardwareSpec& card, int attention_gpus,
                              Precision weights, Precision kv, double activation_fraction);

}  // namespace rlsim
