// The inference engine's side of a weight update: an RL framework hands the new weights to the
// engine in calls — one per checkpoint tensor, or one per bucket of packed tensors — and every call
// costs a fixed time (an RPC or CUDA-IPC handle, the engine's loader finding and slicing the
// parameter) beyond moving its bytes, which the weight sync's links already price. A MoE model's
// expert tensors make per-tensor updates long: Qwen3-30B-A3B has about 18,600 tensors.
#pragma once

#include <cstdint>

#include "models/model_arch.h"
#include "models/named_enum.h"

namespace rlsim {

/// `weight_sync.engine_load`: none (bytes only, the engine's loading is free), per_tensor, bucketed.
#define RLSIM_ENGINE_LOAD_MODES(X) X(none) X(per_tensor) X(bucketed)
RLSIM_NAMED_ENUM(EngineLoadMode, RLSIM_ENGINE_LOAD_MODES)

struct EngineLoadSpec {
  EngineLoadMode mode = EngineLoadMode::none;
  double bucket_bytes = 512.0 * 1024 * 1024;  ///< bucketed: bytes packed into one call
  double per_call_s = 0.0;                    ///< what one call costs beyond its bytes
};

/// Per call of the published measurements (docs/design.md, "The rollout as RL frameworks run it"):
/// one tensor through SGLang's update_weights_from_distributed, 32 ms whatever its size; one 512 MiB
/// bucket in verl's Megatron-to-SGLang update (verl pull request 2418), 0.30 s.
inline constexpr double kPerTensorCallS = 0.032;
inline constexpr double kBucketCallS = 0.30;

/// Tensors of the model's Hugging Face checkpoint, as a framework iterates them: per layer the
/// attention projections (and q/k/v biases, MLA's low-rank pairs and their norms), two norms, and
/// the FFN's matrices (3 or 2 dense; a MoE layer's 3 per routed expert, its router and one shared
/// expert module of 3); then the embedding, the final norm and an untied lm_head. Per-head q/k norms
/// (Qwen3) are not in the catalog's architecture and not counted: 2 a layer at most.
int64_t checkpoint_tensor_count(const ModelArch& arch);

/// Calls of one update of `model_bytes` (the whole model in the sync's precision) under `spec`:
/// the checkpoint's tensors, or the buckets the bytes fill; 0 for none.
int64_t engine_load_calls(const ModelArch& arch, double model_bytes, const EngineLoadSpec& spec);

/// Seconds an instance pauses to load one update beyond its bytes' transfer: calls × per call.
double engine_load_s(const ModelArch& arch, double model_bytes, const EngineLoadSpec& spec);

}  // namespace rlsim
