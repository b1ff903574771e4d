// simulate_afd(): one AFD decode instance layer by layer on a fresh SimGrid engine. Each of the m
// micro-batches is an actor that walks the layers: attention execs on the attention GPUs, dispatch
// comms to the FFN nodes, (with hybrid EP + TP, each expert group's all-gather over its node's
// scale-up ports,) FFN execs on the FFN GPUs, (the groups' reduce-scatter,) combine comms back. The
// attention GPUs and the FFN GPUs each serve one micro-batch at a time in arrival order (FIFO),
// transfers share the real links, so the ping-pong overlap and any network contention come out of
// the simulation. Per layer and micro-batch that is nA + nF execs and 2 · nA · (FFN nodes) comms,
// plus 2 · nF with expert groups — few, large activities.
// SimGrid allows one engine per process: call simulate_afd() once per process.
#pragma once

#include <string>

#include "models/afd/afd_pipeline.h"
#include "sim/platform/simulation_options.h"
#include "sim/platform/timeline.h"
#include "sim/scenario/afd_spec.h"

namespace rlsim {

struct AfdMetrics {
  double tpot_s = 0.0;           ///< steady decode iteration (last iteration, mean over micro-batches)
  double batch_latency_s = 0.0;  ///< first iteration of the whole batch, from an empty pipeline
  double tokens_per_s = 0.0;     ///< batch / TPOT
  double tokens_per_s_per_gpu = 0.0;
  /// Per layer, the whole batch (all micro-batches): busy time of each side and transfer time.
  double attention_s_per_layer = 0.0;
  double transfer_s_per_layer = 0.0;          ///< dispatch + combine, as simulated (contention included)
  double group_collective_s_per_layer = 0.0;  ///< the FFN groups' all-gather + reduce-scatter (ffn_tp > 1)
  double ffn_s_per_layer = 0.0;
  /// One attention layer of one micro-batch on the busiest attention GPU, head left out
  /// (afd_attention_layer_seconds): what an attention-layer benchmark measures.
  double attention_layer_s = 0.0;
  double ffn_utilization = 0.0;  ///< FFN FLOPs / (nF × peak × TPOT)
  double attention_busy_fraction = 0.0;
  double ffn_busy_fraction = 0.0;
  double max_link_utilization = 0.0;  ///< busiest link: bytes / (bandwidth × simulated time)
  std::string busiest_link;
  double usd_per_hour = 0.0;  ///< all GPUs of the instance
  double usd_per_1m_tokens = 0.0;
  bool meets_target = false;
  double attention_memory_fraction = 0.0;  ///< weights + reserve + KV per attention GPU / its memory
  double ffn_memory_fraction = 0.0;        ///< expert weights + reserve per FFN GPU / its memory
  /// MegaScale-Infer's estimate with the plan's mean stage times and an uncongested transfer (each
  /// hop alone on the platform's links).
  PingPongStages analytic_stages;
  PingPongEstimate analytic;
  long activities = 0;  ///< SimGrid execs and comms issued
};

struct AfdResult {
  AfdMetrics metrics;
  Timeline timeline;  ///< per GPU a compute track and a transfer track
};

AfdResult simulate_afd(const AfdScenario& scenario, const SimulationOptions& options = {});

}  // namespace rlsim
