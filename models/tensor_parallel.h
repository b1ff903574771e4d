// Whether tensor parallelism can split a model's attention at a given degree. Engines and trainers
// (vLLM, SGLang, Megatron) give each GPU whole attention heads: the query heads must divide evenly
// over TP, and the K/V heads too or, when there are fewer K/V heads than GPUs, be replicated so
// that each GPU holds one (TP a multiple of the K/V heads). MLA caches one latent per token and
// replicates it, so only its query heads split.
#pragma once

#include <string>
#include <vector>

#include "models/model_arch.h"

namespace rlsim {

/// Why `model` cannot run at tensor parallelism `tp` ("its 32 query heads do not divide over tp
/// 3"), or empty when it can.
std::string tensor_parallel_problem(const ModelArch& model, int tp);

/// The degrees from 1 to `max_tp` that `model` can run at, ascending.
std::vector<int> tensor_parallel_degrees(const ModelArch& model, int max_tp);
/// The same as text for messages: "1, 2, 4, 8".
std::string tensor_parallel_degrees_text(const ModelArch& model, int max_tp);

/// Why a GPU cannot hold `q_heads` query heads against `kv_heads` K/V heads (more K/V heads than
/// query heads, or query heads that do not group evenly over them), or empty.
std::string head_grouping_problem(int q_heads, int kv_heads);

}  // namespace rlsim
