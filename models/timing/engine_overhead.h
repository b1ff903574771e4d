// EngineOverhead: the time an inference engine spends per iteration beyond its kernels, and how it
// adds to them. Real engines (vLLM, SGLang) pay, every iteration, CPU work (scheduling, input
// preparation, sampling bookkeeping, output processing) and, every layer, gaps between kernels:
// the CPU's launch time when the model runs eagerly, a much smaller gap when a captured CUDA graph
// is replayed. The terms come from an engine preset (scenarios/catalog/engines.yaml) and may be
// overridden per card by a calibrated profile's `engine:` block. Pure arithmetic, seconds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace rlsim {

struct EngineOverhead {
  std::string name = "ideal";  ///< preset name; "ideal" = kernels only
  std::string description = "kernels and collectives only: no CPU time, no launch gaps";
  std::string source;               ///< what the terms rest on (papers, blogs, measurements)
  double cpu_fixed_s = 0.0;         ///< CPU time of an iteration whatever its batch, s
  double cpu_per_sequence_s = 0.0;  ///< CPU time per sequence in the iteration, s
  double cpu_per_token_s = 0.0;     ///< CPU time per token computed in the iteration, s
  /// Eager execution: CPU time to launch one layer's kernels. The GPU waits for it only when the
  /// layer's kernels are shorter (launches are asynchronous): a layer takes max(kernels, launch).
  double launch_gap_per_layer_s = 0.0;
  /// CUDA-graph replay: GPU-side gap between one layer's kernels, added to every layer, s.
  double graph_gap_per_layer_s = 0.0;
  /// Iterations of at most this many tokens replay a captured CUDA graph (0: never).
  int64_t graph_max_tokens = 0;
  /// Graphs also cover iterations with prefill tokens (vLLM V1's piecewise graphs); else only
  /// decode-only iterations replay one.
  bool graph_mixed = false;
  /// The CPU work of iteration n overlaps the GPU work of iteration n+1 (SGLang's overlap
  /// scheduler): an iteration takes max(GPU, CPU) instead of GPU + CPU.
  bool overlap_cpu = false;
  /// The engine's default batching (a replica scheduler's name, sim/engine/scheduling/): what a
  /// rollout or serve block that names no `scheduler` runs.
  std::string scheduler = "prefill_first";
  /// Per request sent over HTTP: the time the engine's API server and the client spend on it
  /// outside the engine's iterations (HTTP, tokenisation, detokenisation, streaming the tokens
  /// back), s. A serving benchmark's client sees every token this much later; its TTFT and
  /// end-to-end latency include it, its TPOT does not. Used by `kind: serve` only.
  double api_server_s = 0.0;
};

/// A calibrated profile's `engine:` block: the terms it measured for its card, each optional.
struct EngineOverheadOverride {
  std::optional<double> cpu_fixed_s, cpu_per_sequence_s, cpu_per_token_s, launch_gap_per_layer_s,
      graph_gap_per_layer_s;

  bool empty() const;
  /// `preset` with the terms this override sets replaced.
  EngineOverhead applied_to(EngineOverhead preset) const;
};

/// One iteration's time split into what it is spent on. `total_s` is what the engine waits.
struct IterationTerms {
  double kernels_s = 0.0;    ///< the forward pass's kernels (cost model)
  double allreduce_s = 0.0;  ///< TP all-reduces (collective model)
  /// Pipeline parallelism's own time: the sends between stages, and what the pace of the largest
  /// stage or of the CPU scheduling every micro-batch adds (models/timing/pipeline_parallel.h).
  double pipeline_s = 0.0;
  double launch_s = 0.0;    ///< kernel-launch or graph gaps the GPU waits through
  double cpu_s = 0.0;       ///< CPU work of the iteration
  bool cuda_graph = false;  ///< the iteration replays a CUDA graph
  bool cpu_overlapped = false;

  /// One forward pass on the GPUs (the pipeline's own time is added after: total_s).
  double gpu_s() const { return kernels_s + allreduce_s + launch_s; }
  double total_s() const;
};

/// What an iteration is, for the engine's per-iteration terms.
struct IterationShape {
  int layers = 1;         ///< transformer layers of the model (launch gaps are per layer)
  int64_t sequences = 1;  ///< sequences in the iteration (decode and prefill)
  int64_t tokens = 1;     ///< tokens computed (one per decoding sequence plus prefill tokens)
  bool has_prefill = false;
};

/// True when `engine` runs an iteration of `shape` by replaying a captured CUDA graph.
bool replays_cuda_graph(const EngineOverhead& engine, const IterationShape& shape);

/// The terms of one iteration of `shape` whose kernels take `kernels_s` and TP all-reduces
/// `allreduce_s`, under `engine`.
IterationTerms iteration_terms(const EngineOverhead& engine, const IterationShape& shape, double kernels_s,
                               double allreduce_s);

}  // namespace rlsim
