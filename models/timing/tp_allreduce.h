// TpAllReduce: how the tensor-parallel all-reduces of an inference forward pass are priced, the
// best-measured source first: the engine's own all-reduce as measured on the card (vLLM's custom
// all-reduce, SGLang's, TensorRT-LLM's one-/two-shot: a calibrated profile's `engine_allreduces`,
// inside CUDA graphs or launched eagerly), else NCCL as the profile measured it (alpha-beta), else a
// ring over the scale-up link. Pure arithmetic, seconds.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "models/cost/profile.h"
#include "models/model_arch.h"
#include "models/timing/collectives.h"

namespace rlsim {

struct TpAllReduce {
  LinkSpec link;                         ///< the scale-up link, one direction (the ring's)
  std::optional<CollectiveFit> nccl;     ///< NCCL all-reduce measured (at this group size, or nearest)
  std::optional<EngineAllReduce> graph;  ///< the engine's own, measured inside a CUDA graph
  std::optional<EngineAllReduce> eager;  ///< the engine's own, measured launched eagerly

  /// The all-reduces of one forward pass over `tokens` tokens in a group of `tp` GPUs (0 at tp 1):
  /// two of the hidden state a layer (models/timing/inference_time.h). `cuda_graph`: the iteration
  /// replays a captured graph, so the engine's in-graph measurement prices it.
  double forward_seconds(const ModelArch& arch, double tokens, int tp, bool cuda_graph) const;
  /// What prices an iteration, in words (for `rlsim cost` outputs).
  std::string_view source(int tp, bool cuda_graph) const;
};

/// The pricing of `engine`'s all-reduces in a group of `tp` GPUs of `card` over `link`, with what
/// `profile` measured (nullptr, or a profile fitted for another card: the ring only).
TpAllReduce tp_allreduce_pricing(const HardwareProfile* profile, const std::string& card,
                                 const std::string& engine, int tp, LinkSpec link);

}  // namespace rlsim
