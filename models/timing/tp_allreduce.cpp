// Choosing the measured all-reduce that prices a forward pass's TP all-reduces.
#include "models/timing/tp_allreduce.h"

#include "models/timing/forward_batch_time.h"
#include "models/timing/inference_time.h"

namespace rlsim {

double TpAllReduce::forward_seconds(const ModelArch& arch, double tokens, int tp, bool cuda_graph) const {
  if (tp <= 1) return 0.0;
  const std::optional<EngineAllReduce>& own = cuda_graph ? graph : eager;
  if (!own) return tp_allreduce_seconds(arch, tokens, tp, link, nccl ? &*nccl : nullptr);
  return tp_allreduces_per_forward(arch) * own->seconds_at(tp_allreduce_message_bytes(arch, tokens));
}

std::string_view TpAllReduce::source(int tp, bool cuda_graph) const {
  if (tp <= 1) return "none (TP 1)";
  if (cuda_graph && graph) return "the engine's own all-reduce, measured in CUDA graphs (profile)";
  if (!cuda_graph && eager) return "the engine's own all-reduce, measured launched eagerly (profile)";
  return nccl ? "NCCL, the profile's measured alpha-beta" : "ring over the scale-up link";
}

TpAllReduce tp_allreduce_pricing(const HardwareProfile* profile, const std::string& card,
                                 const std::string& engine, int tp, LinkSpec link) {
  TpAllReduce pricing;
  pricing.link = link;
  if (!profile || profile->card != card) return pricing;
  if (const CollectiveFit* fit = profile->find_collective(Collective::all_reduce, tp, tp))
    pricing.nccl = *fit;
  if (const EngineAllReduce* own = profile->find_engine_allreduce(engine, tp, true)) pricing.graph = *own;
  if (const EngineAllReduce* own = profile->find_engine_allreduce(engine, tp, false)) pricing.eager = *own;
  return pricing;
}

}  // namespace rlsim
