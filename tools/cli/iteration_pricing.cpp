// An iteration's forward batch, kernels and all-reduces from its command-line or CSV description.
#include "tools/cli/iteration_pricing.h"

#include "sim/scenario/scenario.h"

namespace rlsim {

PricedIteration price_iteration(const IterationQuery& query, const ModelArch& model, const HardwareSpec& card,
                                const CostModel& cost, const CollectiveFit* measured) {
  PricedIteration out;
  if (query.prefill) {
    out.batch.chunks.assign(static_cast<size_t>(query.batch),
                            PrefillChunk{query.prompt_tokens, query.context_tokens});
  } else {
    out.batch.decode_sequences = query.batch;
    out.batch.decode_mean_context = static_cast<double>(query.context_tokens);
  }
  out.shape =
      IterationShape{model.layers, out.batch.sequences(), out.batch.tokens(), out.batch.has_prefill()};
  out.kernels_s = forward_batch_seconds(model, card, cost, out.batch, query.tp, query.weights, query.kv);
  // As a rollout pool's scale-up link: one direction of the card's NVLink, the pool's default latency.
  const LinkSpec link{card.intra_node_bw_bytes_per_s / 2.0, PoolSpec{}.intra_node.latency_s};
  out.allreduce_s =
      tp_allreduce_seconds(model, static_cast<double>(out.batch.tokens()), query.tp, link, measured);
  return out;
}

std::optional<CollectiveFit> tp_allreduce_fit(const HardwareProfile& profile, int tp) {
  if (const CollectiveFit* fit = profile.find_collective(Collective::all_reduce, tp, tp)) return *fit;
  return std::nullopt;
}

}  // namespace rlsim
