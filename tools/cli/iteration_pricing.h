// One engine iteration described as the `cost prefill|decode` flags and the serving CSV describe it
// (batch, prompt and context tokens, phase) turned into its forward batch, kernel seconds, TP
// all-reduce seconds and pipeline sends, as the simulator's instances cost them: shared by `rlsim cost
// prefill|decode` and `rlsim calibrate --format serving`.
#pragma once

#include <cstdint>
#include <string>

#include "models/cost/cost_model.h"
#include "models/cost/profile.h"
#include "models/hardware.h"
#include "models/model_arch.h"
#include "models/timing/engine_overhead.h"
#include "models/timing/forward_batch_time.h"
#include "models/timing/tp_allreduce.h"

namespace rlsim {

struct IterationQuery {
  int tp = 1;
  int64_t batch = 1;
  int64_t prompt_tokens = 0;   ///< prefill: new tokens of each sequence
  int64_t context_tokens = 0;  ///< prefill: cached before them; decode: each sequence's context
  bool prefill = false;
  Precision weights = Precision::bf16;
  Precision kv = Precision::bf16;
  int pp = 1;  ///< pipeline stages (models/timing/pipeline_parallel.h)
};

struct PricedIteration {
  ForwardBatch batch;    ///< the whole iteration
  IterationShape shape;  ///< of the heaviest micro-batch (the whole batch at pp 1)
  double kernels_s = 0.0;
  double allreduce_s = 0.0;
  double sends_s = 0.0;  ///< sends between pipeline stages (0 at pp 1)
};

/// `query` for `model` on `card` with `cost` under `engine`, the all-reduces priced by `allreduce`
/// (in a CUDA graph when the engine replays one for this iteration). With pipeline stages, one
/// round (its heaviest micro-batch through every stage) as a scenario's instances cost it, the
/// stages in one server of a pool's default size when the instance divides it, else linked by the
/// card's NIC.
PricedIteration price_iteration(const IterationQuery& query, const ModelArch& model, const HardwareSpec& card,
                                const CostModel& cost, const EngineOverhead& engine,
                                const TpAllReduce& allreduce);

/// The TP all-reduces of `engine` at `tp` GPUs of `card` as a rollout pool of default links prices
/// them: the engine's own or NCCL as `profile` (may be null) measured them, else a ring over one
/// direction of the card's NVLink at a pool's default latency.
TpAllReduce pool_tp_allreduce(const HardwareProfile* profile, const HardwareSpec& card,
                              const std::string& engine, int tp);

}  // namespace rlsim
