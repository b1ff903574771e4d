// Memoised decode iteration time: batch-only ops once per batch, attention per call.
#include "models/timing/decode_iteration_time.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace rlsim {
namespace {

ForwardPass decode_pass(int64_t batch, int64_t context_before, int tp, Precision weights, Precision kv) {
  ForwardPass pass;
  pass.kind = PassKind::decode;
  pass.sequences = batch;
  pass.new_tokens = 1;
  pass.context_before = context_before;
  pass.tp = tp;
  pass.weights = weights;
  pass.kv = kv;
  return pass;
}

}  // namespace

DecodeIterationTime::DecodeIterationTime(const ModelArch& arch, const HardwareSpec& card,
                                         const CostModel& cost, int tp, Precision weights, Precision kv)
    : arch_(arch), card_(card), cost_(cost), tp_(tp), weights_(weights), kv_(kv) {}

const DecodeIterationTime::PerBatch& DecodeIterationTime::per_batch(int64_t batch) const {
  if (static_cast<size_t>(batch) >= by_batch_.size()) by_batch_.resize(static_cast<size_t>(batch) + 1);
  PerBatch& entry = by_batch_[static_cast<size_t>(batch)];
  if (entry.ready) return entry;
  // The same pass at KV lengths 1 and 2: ops line up one to one, and only attention ops differ.
  const std::vector<CountedOp> one = forward_ops(arch_, decode_pass(batch, 0, tp_, weights_, kv_));
  const std::vector<CountedOp> two = forward_ops(arch_, decode_pass(batch, 1, tp_, weights_, kv_));
  assert(one.size() == two.size() && "a decode pass has the same ops at every context");
  for (size_t i = 0; i < one.size(); ++i) {
    if (one[i].op.op_class == OpClass::attention_decode) {
      entry.context_ops.push_back(
          ContextOp{one[i], two[i].op.flops - one[i].op.flops, two[i].op.bytes - one[i].op.bytes});
    } else {
      entry.fixed_s += one[i].count * cost_.seconds(one[i].op, card_);
    }
  }
  entry.ready = true;
  return entry;
}

double DecodeIterationTime::seconds(int64_t batch, double mean_context) const {
  assert(batch >= 1 && mean_context >= 0.0 && "decode needs a batch and a context");
  const PerBatch& entry = per_batch(batch);
  // As decode_iteration_seconds: the new token attends to the rounded context and to itself.
  const int64_t extra = std::max<int64_t>(0, std::llround(mean_context));
  double total = entry.fixed_s;
  for (const ContextOp& c : entry.context_ops) {
    Op op = c.at_one.op;
    op.attention.kv_len += extra;
    op.flops += c.flops_per_token * static_cast<double>(extra);
    op.bytes += c.bytes_per_token * static_cast<double>(extra);
    total += c.at_one.count * cost_.seconds(op, card_);
  }
  return total;
}

}  // namespace rlsim
