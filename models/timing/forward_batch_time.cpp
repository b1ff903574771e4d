// A mixed iteration's kernels: non-attention ops once on all tokens, attention per sequence.
#include "models/timing/forward_batch_time.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "models/ops/layer_ops.h"
#include "models/timing/inference_time.h"

namespace rlsim {
namespace {

bool is_attention_core(const Op& op) {
  return op.op_class == OpClass::attention_decode || op.op_class == OpClass::attention_prefill;
}

/// Seconds of the ops of `pass` that are (`attention`) or are not attention cores.
double ops_seconds(const ModelArch& arch, const HardwareSpec& card, const CostModel& cost,
                   const ForwardPass& pass, bool attention) {
  double total = 0.0;
  for (const CountedOp& counted : forward_ops(arch, pass)) {
    if (is_attention_core(counted.op) == attention) total += counted.count * cost.seconds(counted.op, card);
  }
  return total;
}

ForwardPass pass_of(PassKind kind, int64_t sequences, int64_t new_tokens, int64_t context_before, int tp,
                    Precision weights, Precision kv) {
  ForwardPass pass;
  pass.kind = kind;
  pass.sequences = sequences;
  pass.new_tokens = new_tokens;
  pass.context_before = context_before;
  pass.tp = tp;
  pass.weights = weights;
  pass.kv = kv;
  return pass;
}

}  // namespace

int64_t ForwardBatch::tokens() const {
  int64_t total = decode_sequences;
  for (const PrefillChunk& c : chunks) total += c.tokens;
  return total;
}

double forward_batch_seconds(const ModelArch& arch, const HardwareSpec& card, const CostModel& cost,
                             const ForwardBatch& batch, int tp, Precision weights, Precision kv) {
  assert(batch.tokens() >= 1 && "a forward pass computes at least one token");
  if (!batch.has_prefill())
    return decode_iteration_seconds(arch, card, cost, batch.decode_sequences, batch.decode_mean_context, tp,
                                    weights, kv);
  if (batch.decode_sequences == 0 && batch.chunks.size() == 1) {
    return prefill_seconds(arch, card, cost, batch.chunks.front().tokens, batch.chunks.front().context_before,
                           tp, weights);
  }
  // Weights once: every op but the attention core on all the batch's tokens.
  double total =
      ops_seconds(arch, card, cost, pass_of(PassKind::prefill, 1, batch.tokens(), 0, tp, weights, kv), false);
  for (const PrefillChunk& c : batch.chunks) {
    total += ops_seconds(
        arch, card, cost,
        pass_of(PassKind::prefill, 1, c.tokens, c.context_before, tp, weights, Precision::bf16), true);
  }
  if (batch.decode_sequences > 0) {
    const int64_t context = std::max<int64_t>(0, std::llround(batch.decode_mean_context));
    total +=
        ops_seconds(arch, card, cost,
                    pass_of(PassKind::decode, batch.decode_sequences, 1, context, tp, weights, kv), true);
  }
  return total;
}

double tp_allreduce_message_bytes(const ModelArch& arch, double tokens) {
  return tokens * tp_allreduce_bytes_per_token(arch, Precision::bf16) / tp_allreduces_per_forward(arch);
}

double tp_allreduce_seconds(const ModelArch& arch, double tokens, int tp, const LinkSpec& link,
                            const CollectiveFit* measured) {
  if (tp <= 1) return 0.0;
  const double bytes = tp_allreduce_message_bytes(arch, tokens);
  return tp_allreduces_per_forward(arch) *
         (measured ? collective_seconds(*measured, tp, bytes) : all_reduce_seconds(bytes, tp, link));
}

}  // namespace rlsim
