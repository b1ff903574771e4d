// One iteration of a continuous-batching engine as ONE forward pass: decoding sequences (one new
// token each) and prefill chunks (several new tokens of one sequence after its cached context)
// batched together, as vLLM V1, SGLang and Sarathi-Serve run them. The weights are read once for
// all the iteration's tokens: every op except the attention core runs on the batch's total token
// count; the attention core runs per sequence, by its own context (decode attention for the
// decoding sequences at their mean context, causal prefill attention for each chunk). Also the TP
// all-reduces of such a pass. Pure functions, seconds.
#pragma once

#include <cstdint>
#include <vector>

#include "models/cost/cost_model.h"
#include "models/cost/profile.h"
#include "models/hardware.h"
#include "models/model_arch.h"
#include "models/precision.h"
#include "models/timing/collectives.h"

namespace rlsim {

/// `tokens` new tokens of one sequence whose KV already holds `context_before` tokens.
struct PrefillChunk {
  int64_t tokens = 1;
  int64_t context_before = 0;
};

/// What one iteration computes.
struct ForwardBatch {
  int64_t decode_sequences = 0;      ///< sequences generating one token each
  double decode_mean_context = 0.0;  ///< their mean context (KV tokens)
  std::vector<PrefillChunk> chunks;  ///< prefill chunks, one per sequence

  int64_t tokens() const;
  int64_t sequences() const { return decode_sequences + static_cast<int64_t>(chunks.size()); }
  bool has_prefill() const { return !chunks.empty(); }
};

/// Kernel seconds of one forward pass over `batch` on a TP group of `tp` GPUs (per GPU; the group
/// runs in parallel). A decode-only batch equals decode_iteration_seconds and a single chunk
/// prefill_seconds; a mixed batch costs the non-attention ops once, on all its tokens (the lm_head
/// as in a prefill pass). Requires at least one token.
double forward_batch_seconds(const ModelArch& arch, const HardwareSpec& card, const CostModel& cost,
                             const ForwardBatch& batch, int tp, Precision weights, Precision kv);

/// Bytes of each TP all-reduce of one forward pass over `tokens` tokens (the hidden state, bf16).
double tp_allreduce_message_bytes(const ModelArch& arch, double tokens);

/// TP all-reduces of one forward pass over `tokens` tokens: tp_allreduces_per_forward all-reduces of
/// the hidden state (0 without tensor parallelism), each by the `measured` alpha-beta fit of a
/// calibrated profile when given, else a ring over `link`. At decode batch sizes the messages are
/// KiBs and the latency term dominates (ring: 2(p−1)α; measured NCCL on an H100 DGX: α ≈ 29 µs at 8
/// GPUs, calibrate/profiles/h100.yaml).
double tp_allreduce_seconds(const ModelArch& arch, double tokens, int tp, const LinkSpec& link,
                            const CollectiveFit* measured = nullptr);

}  // namespace rlsim
