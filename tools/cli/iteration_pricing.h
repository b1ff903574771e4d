// One engine iteration described as the `cost prefill|decode` flags and the serving CSV describe it
// (batch, prompt and context tokens, phase) turned into its forward batch, kernel seconds, TP
// all-reduce seconds and pipeline sends, as the simulator's instances cost them: shared by `rlsim cost
// prefill|decode` and `rlsim calibrate --format serving`.
#pragma once

#include <cstdint>
#include <optional>

#include "models/cost/cost_model.h"
#include "models/cost/profile.h"
#include "models/hardware.h"
#include "models/model_arch.h"
#include "models/timing/engine_overhead.h"
#include "models/timing/forward_batch_time.h"

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

/// `query` for `model` on `card` with `cost`; the all-reduce by `measured` when given, else a ring
/// over the card's scale-up link at a scenario pool's default latency. With pipeline stages, one
/// round (its heaviest micro-batch through every stage) as a scenario's instances cost it, the
/// stages in one server of a pool's default size when the instance divides it, else linked by the
/// card's NIC.
PricedIteration price_iteration(const IterationQuery& query, const ModelArch& model, const HardwareSpec& card,
                                const CostModel& cost, const CollectiveFit* measured);

/// The all-reduce fit of `profile` measured at `tp` GPUs in one node, or nullopt.
std::optional<CollectiveFit> tp_allreduce_fit(const HardwareProfile& profile, int tp);

}  // namespace rlsim
