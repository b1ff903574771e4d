// DecodeIterationTime: decode_iteration_seconds for one model on one card and TP group, memoised
// for the engine's hot loop, where an instance re-plans its decode stretch at every arrival and
// completion. Only the attention core of a decode pass depends on the context; everything else
// (projections, FFN or experts, norms, lm_head) depends on the batch alone. So the rest is costed
// once per batch size, and per call only the attention ops are, with their FLOPs and bytes (affine
// in the KV length) set for the context asked. Results equal decode_iteration_seconds up to
// floating-point rounding.
#pragma once

#include <cstdint>
#include <vector>

#include "models/cost/cost_model.h"
#include "models/hardware.h"
#include "models/model_arch.h"
#include "models/ops/layer_ops.h"
#include "models/precision.h"

namespace rlsim {

class DecodeIterationTime {
 public:
  /// Keeps references: `arch`, `card` and `cost` must outlive this object.
  DecodeIterationTime(const ModelArch& arch, const HardwareSpec& card, const CostModel& cost, int tp,
                      Precision weights, Precision kv);

  /// decode_iteration_seconds(arch, card, cost, batch, mean_context, tp, weights, kv).
  double seconds(int64_t batch, double mean_context) const;

 private:
  /// An attention op at KV length 1 and how its FLOPs and bytes grow per extra cached token.
  struct ContextOp {
    CountedOp at_one;
    double flops_per_token = 0.0;
    double bytes_per_token = 0.0;
  };
  struct PerBatch {
    bool ready = false;
    double fixed_s = 0.0;  ///< every op that does not depend on the context
    std::vector<ContextOp> context_ops;
  };
  const PerBatch& per_batch(int64_t batch) const;

  const ModelArch& arch_;
  const HardwareSpec& card_;
  const CostModel& cost_;
  int tp_;
  Precision weights_;
  Precision kv_;
  mutable std::vector<PerBatch> by_batch_;  ///< index = batch size
};

}  // namespace rlsim
