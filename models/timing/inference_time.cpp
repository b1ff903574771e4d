// Prefill and decode times from the per-op costs (see inference_cost.h).
#include "models/timing/inference_time.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "models/ops/layer_ops.h"

namespace rlsim {
namespace {

double pass_seconds(const ModelArch& arch, const HardwareSpec& card, const CostModel& cost,
                    const ForwardPass& pass) {
  double total = 0.0;
  for (const CountedOp& counted : forward_ops(arch, pass))
    total += counted.count * cost.seconds(counted.op, card);
  return total;
}

}  // namespace

double prefill_seconds(const ModelArch& arch, const HardwareSpec& card, const CostModel& cost, int64_t tokens,
                       int64_t context_before, int tp, Precision weights) {
  assert(tokens >= 1 && context_before >= 0 && tp >= 1 && "prefill needs tokens and a TP degree");
  ForwardPass pass;
  pass.kind = PassKind::prefill;
  pass.sequences = 1;
  pass.new_tokens = tokens;
  pass.context_before = context_before;
  pass.tp = tp;
  pass.weights = weights;
  pass.kv = Precision::bf16;
  return pass_seconds(arch, card, cost, pass);
}

double decode_iteration_seconds(const ModelArch& arch, const HardwareSpec& card, const CostModel& cost,
                                int64_t batch, double mean_context, int tp, Precision weights, Precision kv) {
  assert(batch >= 1 && mean_context >= 0.0 && tp >= 1 && "decode needs a batch and a TP degree");
  ForwardPass pass;
  pass.kind = PassKind::decode;
  pass.sequences = batch;
  pass.new_tokens = 1;
  // The new token attends to itself as well: kv_len = context_before + 1 ≥ 1.
  pass.context_before = std::max<int64_t>(0, std::llround(mean_context));
  pass.tp = tp;
  pass.weights = weights;
  pass.kv = kv;
  return pass_seconds(arch, card, cost, pass);
}

double tp_allreduce_bytes_per_token(const ModelArch& arch, Precision act) {
  return 2.0 * arch.layers * static_cast<double>(arch.hidden_size) * bytes_per_element(act);
}

int tp_allreduces_per_forward(const ModelArch& arch) { return 2 * arch.layers; }

}  // namespace rlsim
