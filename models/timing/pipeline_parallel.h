// Pipeline parallelism of an inference replica: `pp` stages of consecutive layers, each stage a TP
// group. Real engines (TensorRT-LLM, vLLM, SGLang) keep the pipeline full by cutting the running
// batch into `pp` micro-batches that follow each other through the stages, so every sequence still
// gains one token a round, and a round lasts one micro-batch's trip: all layers at the micro-batch's
// size (the stages' shares add up to the whole model), plus a send of its hidden state between
// consecutive stages and the sampled tokens' return to the first stage; or longer, when the filled
// micro-batches keep the largest stage or the engine's CPU busy longer than that trip (their pace).
// Fewer sequences than stages leave stages idle (the pipeline bubble): a round costs as much as a
// full one's trip. Pure arithmetic, seconds.
#pragma once

#include "models/model_arch.h"
#include "models/timing/collectives.h"
#include "models/timing/engine_overhead.h"
#include "models/timing/forward_batch_time.h"

namespace rlsim {

/// The largest of the `pp` micro-batches `batch` is cut into: ceil(decoding sequences / pp) of its
/// decoding sequences and the ceil(chunks / pp) largest of its prefill chunks (a prompt's chunk is
/// not split across micro-batches). `pp` 1: the batch itself. The round is bound by this one.
ForwardBatch heaviest_micro_batch(const ForwardBatch& batch, int pp);

/// The stage-to-stage traffic of one micro-batch of `tokens` tokens through `pp` stages: pp − 1
/// sends of its hidden state (bf16, hidden_size × 2 bytes a token) and the return of its sampled
/// tokens to the first stage (latency only), each over `link`. 0 for pp 1.
double pipeline_sends_seconds(const ModelArch& arch, double tokens, int pp, const LinkSpec& link);

/// Micro-batches `batch` fills: min(pp, sequences), at least one.
int64_t filled_micro_batches(const ForwardBatch& batch, int pp);

/// The largest stage's share of the layers, ceil(layers / pp) / layers: a full pipeline moves at
/// the pace of its largest stage.
double largest_stage_share(int layers, int pp);

/// Seconds a round of `batch` takes when its heaviest micro-batch's pass through every stage (its
/// `pass` terms, sends excluded) and its `sends` are known: that micro-batch's trip, or, when the
/// filled micro-batches keep a stage or the scheduling CPU busy longer, their pace (each of them
/// crossing the largest stage, and each scheduled on the CPU one after the other).
double round_seconds(const IterationTerms& pass, double sends_s, const ForwardBatch& batch, int layers,
                     int pp);

/// The share of a round each stage works: min(pp, sequences) / pp, as a batch of fewer sequences
/// than stages fills only that many micro-batches (the rest of the round is the pipeline bubble).
/// 1 for pp 1 or a batch with at least pp sequences.
double stage_busy_share(const ForwardBatch& batch, int pp);

/// Bytes of hidden state one token carries between stages (bf16 activations).
double stage_activation_bytes_per_token(const ModelArch& arch);

}  // namespace rlsim
