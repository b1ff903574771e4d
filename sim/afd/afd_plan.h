// AfdPlan: one decode iteration of an AFD instance in numbers, before any SimGrid object exists —
// which GPUs play which side, how the batch splits into micro-batches and over the attention GPUs,
// and per layer and micro-batch the seconds of every exec and the bytes of every transfer. Exec
// times come from models/afd/afd_stages.h (the scenario's cost model over layer_ops); transfers are
// rail-aligned: attention GPU i sends one message per FFN node, to the node's GPU on i's rail
// (local rank i mod the node's FFN GPUs), which forwards inside the node over NVLink. With plain EP
// (ffn_tp 1) that forward is not modelled: NVLink gives a GPU 200 (H800) to 450 (H100) GB/s a
// direction against a 400 Gbps NIC's 50, but the forward copies a token to every GPU of the node
// holding one of its experts, so on H800 it is a real fraction of the NIC time (docs/afd.md,
// Limits). With hybrid EP + TP (ffn_tp > 1) each expert group all-gathers the tokens it works on
// before its experts and reduce-scatters their outputs after; the plan holds each one's buffer.
#pragma once

#include <cstdint>
#include <vector>

#include "models/cost/cost_model.h"
#include "sim/scenario/afd_spec.h"

namespace rlsim {

/// One message between an attention GPU and an FFN GPU (indices into AfdPlan's GPU lists).
struct AfdTransfer {
  int attention = 0;
  int ffn = 0;
  double bytes = 0.0;
};

struct AfdLayerPlan {
  bool moe = false;
  std::vector<std::vector<double>> attention_s;    ///< [micro-batch][attention GPU]
  std::vector<double> ffn_s;                       ///< [micro-batch], the same on every FFN GPU
  std::vector<std::vector<AfdTransfer>> dispatch;  ///< [micro-batch]: attention → FFN
  std::vector<std::vector<AfdTransfer>> combine;   ///< [micro-batch]: FFN → attention
  /// [micro-batch]: bytes of the buffer each expert group all-gathers (the tokens routed to it, in
  /// the dispatch precision) and reduce-scatters (their outputs, in the combine precision); empty
  /// with plain EP.
  std::vector<double> group_gather_bytes, group_scatter_bytes;
};

struct AfdPlan {
  std::vector<int> attention_gpus;              ///< indices into the attention pool's GPUs
  std::vector<int> ffn_gpus;                    ///< indices into the FFN pool's GPUs
  int ffn_tp = 1;                               ///< FFN GPUs per expert group (consecutive in ffn_gpus)
  std::vector<int64_t> micro_batch_sequences;   ///< [micro-batch]
  std::vector<std::vector<int64_t>> sequences;  ///< [micro-batch][attention GPU]
  std::vector<AfdLayerPlan> layers;
  double ffn_flops_per_iteration = 0.0;  ///< all FFN GPUs together, one token per sequence

  int micro_batches() const { return static_cast<int>(micro_batch_sequences.size()); }
};

/// The plan of `scenario` with op times from `cost`. Pure arithmetic; the scenario is already valid.
AfdPlan make_afd_plan(const AfdScenario& scenario, const CostModel& cost);

/// Seconds of one attention layer (norms, projections, core attention, router) for one micro-batch
/// on its busiest attention GPU, the mean over micro-batches and over every layer but the last,
/// which also runs the embedding and lm_head (a one-layer model keeps it). This is what kernel
/// benchmarks of an attention layer time, e.g. Step-3's Table 9.
double afd_attention_layer_seconds(const AfdPlan& plan);

}  // namespace rlsim
