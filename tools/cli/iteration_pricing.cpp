// An iteration's forward batch, kernels, all-reduces and pipeline sends from its command-line or CSV
// description.
#include "tools/cli/iteration_pricing.h"

#include "models/timing/pipeline_parallel.h"
#include "sim/scenario/scenario.h"

namespace rlsim {

namespace {

/// As a rollout pool's scale-up link: one direction of the card's NVLink, the pool's default latency.
LinkSpec pool_scale_up(const HardwareSpec& card) {
  return {card.intra_node_bw_bytes_per_s / 2.0, PoolSpec{}.intra_node.latency_s};
}

}  // namespace

PricedIteration price_iteration(const IterationQuery& query, const ModelArch& model, const HardwareSpec& card,
                                const CostModel& cost, const EngineOverhead& engine,
                                const TpAllReduce& allreduce) {
  PricedIteration out;
  if (query.prefill) {
    out.batch.chunks.assign(static_cast<size_t>(query.batch),
                            PrefillChunk{query.prompt_tokens, query.context_tokens});
  } else {
    out.batch.decode_sequences = query.batch;
    out.batch.decode_mean_context = static_cast<double>(query.context_tokens);
  }
  const ForwardBatch micro = heaviest_micro_batch(out.batch, query.pp);
  out.shape = IterationShape{model.layers, micro.sequences(), micro.tokens(), micro.has_prefill()};
  out.kernels_s = forward_batch_seconds(model, card, cost, micro, query.tp, query.weights, query.kv);
  const auto tokens = static_cast<double>(micro.tokens());
  out.allreduce_s = allreduce.forward_seconds(model, tokens, query.tp, replays_cuda_graph(engine, out.shape));
  const LinkSpec stages = PoolSpec{}.gpus_per_node % (query.tp * query.pp) == 0
                              ? pool_scale_up(card)
                              : LinkSpec{card.nic_bw_bytes_per_s, PoolSpec{}.nic.latency_s};
  out.sends_s = pipeline_sends_seconds(model, tokens, query.pp, stages);
  return out;
}

TpAllReduce pool_tp_allreduce(const HardwareProfile* profile, const HardwareSpec& card,
                              const std::string& engine, int tp) {
  return tp_allreduce_pricing(profile, card.name, engine, tp, pool_scale_up(card));
}

}  // namespace rlsim
