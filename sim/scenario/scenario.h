// Scenario: a what-if as plain structs — the cluster, the workload, how rollout and training are
// laid out, and the orchestration policy. Produced once from YAML by scenario_loader; the engine
// reads only these structs. All quantities are in SI units (bytes, bytes/s, seconds). The member
// initialisers are the schema's defaults, declared only here: the loader reads every absent field
// as the default-constructed struct's value, so a Scenario built in code runs as its YAML would.
// Plug-ins (policy, router, cost model) are a PluginSpec: a registered name and the values of
// that entry's own parameters (defaults in its registration).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/hardware.h"
#include "models/input_error.h"
#include "models/memory/training_memory.h"
#include "models/model_arch.h"
#include "models/precision.h"
#include "models/registry/registry.h"
#include "models/timing/attention_kernels.h"
#include "models/timing/engine_overhead.h"
#include "models/timing/engine_weight_load.h"
#include "models/timing/rank_balance.h"
#include "sim/scenario/choices.h"
#include "sim/scenario/distribution.h"
#include "sim/scenario/fault_spec.h"
#include "sim/scenario/labels_spec.h"

namespace rlsim {

struct LinkParams {
  double bandwidth_bytes_per_s = 0.0;
  double latency_s = 0.0;
};

/// Nodes of one card type: GPUs behind a scale-up link, one NIC per GPU.
struct PoolSpec {
  std::string name;
  HardwareSpec card;
  int nodes = 0;
  int gpus_per_node = 8;
  LinkParams intra_node{0.0, 1e-6};  ///< per-GPU scale-up port (NVLink…); bandwidth: the card's
  LinkParams nic{0.0, 2e-6};         ///< per-GPU scale-out NIC; bandwidth: the card's
  SourceLocation where;

  int gpus() const { return nodes * gpus_per_node; }
};

/// A link between two endpoints of the cluster: pools by name, "agents" or "dataplane".
struct ClusterLinkSpec {
  std::string a, b;
  LinkParams params{0.0, 5e-6};  ///< bandwidth is required
  SourceLocation where;
};

struct AgentHostsSpec {
  int hosts = 1;
  int cores = 64;  ///< concurrent tool executions per host
  LinkParams nic{25e9, 5e-6};
};

struct DataPlaneSpec {
  bool enabled = true;  ///< route every LLM call through the trajectory manager
  LinkParams nic{25e9, 5e-6};
  double seconds_per_record = 0.0;  ///< fixed recording cost per LLM input or output
  double bytes_per_s = 1e9;         ///< recording throughput (disk/CPU)
  bool ledger = false;              ///< write the recorded calls as trajectories.jsonl
};

struct ClusterSpec {
  std::vector<PoolSpec> pools;
  LinkParams fabric{0.0, 1e-6};  ///< within a pool, node to node; bandwidth 0 = non-blocking (fat pipe)
  std::vector<ClusterLinkSpec> links;
  AgentHostsSpec agents;
  DataPlaneSpec dataplane;

  const PoolSpec* pool(const std::string& name) const {
    for (const auto& p : pools) {
      if (p.name == name) return &p;
    }
    return nullptr;
  }
};

/// One turn of a recorded trajectory (workload.trajectories).
struct ReplayedTurn {
  double prompt_tokens = 0.0;  ///< new tokens: the prompt, or a tool's observation
  double output_tokens = 1.0;
  double tool_latency_s = 0.0;  ///< the tool run after this turn (ignored after the last)
  int line = 0;                 ///< its line in the JSONL file, for errors about the turn
};

struct ReplayedTrajectory {
  std::vector<ReplayedTurn> turns;
};

/// One point of a run's length schedule: from `step` on, responses average `output_tokens_mean`
/// (`rlsim forecast` interpolates linearly between points and holds the ends).
struct LengthSchedulePoint {
  int step = 0;
  double output_tokens_mean = 0.0;
  SourceLocation where;  ///< of the entry, for errors found later (a mean the distribution cannot reach)
};

struct WorkloadSpec {
  int steps = 3;
  int prompts_per_step = 1;                                 ///< required in YAML
  int samples_per_prompt = 8;                               ///< GRPO group size
  Distribution turns = fixed_distribution(1);               ///< LLM calls per trajectory
  Distribution prompt_tokens = fixed_distribution(512);     ///< first-turn prompt length
  Distribution output_tokens = fixed_distribution(1024);    ///< tokens generated per LLM call
  Distribution observation_tokens = fixed_distribution(0);  ///< tokens a tool appends before the next call
  Distribution tool_latency_s = fixed_distribution(0);      ///< seconds a tool call takes
  double max_context_tokens = 0;  ///< a trajectory ends when its context would pass this (0 = no limit)
  /// The rollout's max_model_len, copied here by the loader (0 = none): a trajectory ends there too,
  /// as an agent framework ends a conversation the engine would no longer take.
  double max_model_len = 0;
  /// Set: trajectory `id` replays replayed[id mod size] instead of drawing from the distributions.
  std::string trajectories_file;  ///< as written (relative to the scenario)
  std::string trajectories_path;  ///< the file as read, for errors naming its lines
  std::vector<ReplayedTrajectory> replayed;
  /// How the mean response length grows over a long run (read by `rlsim forecast`; a run simulates
  /// output_tokens as written). Steps strictly increase.
  std::vector<LengthSchedulePoint> length_schedule;

  int trajectories_per_step() const { return prompts_per_step * samples_per_prompt; }
  /// The context a trajectory may reach: the smaller of max_context_tokens and max_model_len that
  /// are set (0 = no limit).
  double context_limit_tokens() const {
    if (max_context_tokens > 0.0 && max_model_len > 0.0) return std::min(max_context_tokens, max_model_len);
    return std::max(max_context_tokens, max_model_len);
  }
};

/// A rollout pool of AFD instances: each is `attention_gpus` GPUs of rollout.pool (attention, data
/// parallel, holding the KV cache) and `ffn_gpus` GPUs of `ffn_pool` (the FFN or experts, expert
/// parallel). Its decode iteration time comes from the layer-level AFD simulation (sim/afd).
struct AfdRolloutSpec {
  std::string ffn_pool;
  int attention_gpus = 0;
  int ffn_gpus = 0;
  int ffn_tp = 1;                       ///< FFN GPUs per expert group (AfdDeploymentSpec::ffn_tp)
  int micro_batches = 3;                ///< ping-pong micro-batches (fewer when the batch is smaller)
  Precision dispatch = Precision::fp8;  ///< activations sent to the FFN side
  Precision combine = Precision::bf16;  ///< expert outputs sent back
  SourceLocation where;                 ///< of the `afd:` mapping, for errors found later
};

struct RolloutSpec {
  std::string pool;
  int tp = 1;               ///< tensor-parallel GPUs per pipeline stage of an inference instance
  int pp = 1;               ///< pipeline stages per instance (models/timing/pipeline_parallel.h)
  SourceLocation pp_where;  ///< of `pp` (or of the block when it is not written), for policy checks
  int max_batch = 256;      ///< concurrent sequences per instance
  /// Tokens one sequence may hold, prompt and output (vLLM's max_model_len); the loader's default
  /// is the model's context window.
  int64_t max_model_len = 0;
  Precision weights = Precision::bf16;
  Precision kv_cache = Precision::bf16;
  PluginSpec router{"least_loaded"};  ///< sim/engine/routers/
  bool prefix_cache = true;  ///< keep a trajectory's KV between turns and shared system prompts (LRU)
  KvOverflow preemption = KvOverflow::recompute;  ///< when KV runs out
  double swap_bandwidth_bytes_per_s = 25e9;       ///< host link per GPU for KV swap
  double activation_memory_fraction = 0.1;        ///< card memory kept for activations and workspace
  std::optional<AfdRolloutSpec> afd;              ///< set: the instances are AFD instances
  PluginSpec scheduler{"prefill_first"};          ///< batching of each replica; YAML default: the engine's
  std::string engine = "vllm-v1";                 ///< engine preset (scenarios/catalog/engines.yaml)
  /// Replay CUDA graphs where the preset does; false: eager launches every iteration (enforce_eager).
  bool cuda_graphs = true;
  EngineOverhead engine_overhead;  ///< that preset's terms, resolved by the loader (eager: no graphs)

  /// GPUs of one (non-AFD) instance: pp stages of tp GPUs.
  int gpus_per_instance() const { return tp * pp; }
  /// "tp 4", or "tp 4 × pp 2" for a pipelined instance (summaries and messages).
  std::string parallelism() const {
    return "tp " + std::to_string(tp) + (pp > 1 ? " × pp " + std::to_string(pp) : "");
  }
};

struct TrainingSpec {
  std::string pool;
  int dp = 1, tp = 1, pp = 1;
  RlAlgorithm algorithm = RlAlgorithm::grpo;
  int mini_batches = 1;  ///< optimizer steps per RL step
  Precision weights = Precision::bf16;
  double sequence_tokens = 4096;  ///< typical training sequence (attention span for FLOPs)
  /// ZeRO/FSDP sharding of the model states over DP (models/memory/training_memory.h); zero3 is
  /// FSDP, verl's default actor strategy (verl docs, actor_rollout_ref.actor.strategy: fsdp).
  Sharding sharding = Sharding::zero3;
  /// Activation recomputation; selective is Megatron-LM's default (Korthikanti et al. 2022).
  Recompute recompute = Recompute::selective;
  bool offload_optimizer = false;  ///< optimizer states in host memory (ZeRO-Offload)
  /// How each mini-batch's sequences are split over the DP ranks (models/timing/rank_balance.h):
  /// tokens is verl's balance_batch and NeMo RL's sequence packing, none a split by count.
  RankBalance balance = RankBalance::tokens;
  /// The attention kernel of training (forward, backward, log-prob passes): flash2 is Hugging Face's
  /// flash_attention_2 that PyTorch FSDP trainers (verl, OpenRLHF) load; cudnn is Megatron-Core's
  /// Transformer Engine fused attention; flash3 is Hopper's FlashAttention-3.
  AttentionKernel attention_kernel = AttentionKernel::flash2;
  /// Gradient precision: bf16, or fp32 (Megatron-LM's default with bf16 weights, FSDP2's
  /// reduce_dtype as verl and torchtitan set it): the gradient buffers and the DP gradient traffic.
  Precision gradients = Precision::bf16;
  int micro_batch_sequences = 1;  ///< sequences of sequence_tokens in one micro-batch
  bool sequence_parallel = true;  ///< activations outside TP regions split over TP (Megatron SP)
  AttentionBackend attention_backend = AttentionBackend::flash;
  bool dropout = false;  ///< dropout layers (and their masks); RL fine-tuning runs without
  /// A frozen reference model beside the policy (its forward pass each step): GRPO and PPO's KL
  /// term; DAPO and other KL-free recipes run without one.
  bool reference_model = true;
  /// The old policy's log-probs come from the rollout engine, which computed them while sampling,
  /// instead of a forward pass of the trainer (verl's fully async trainer by default:
  /// async_training.use_rollout_log_probs).
  bool rollout_log_probs = false;
  SourceLocation where;  ///< of the `training:` mapping, for errors found later

  /// The forward passes over the step's batch before the update, by verl's names: the old
  /// policy's log-probs unless the rollout's are used, the reference model's where one is kept,
  /// PPO's critic values.
  std::vector<std::string> extra_forwards() const {
    std::vector<std::string> passes;
    if (!rollout_log_probs) passes.emplace_back("old_log_prob");
    if (reference_model) passes.emplace_back("ref");
    if (algorithm == RlAlgorithm::ppo) passes.emplace_back("values");
    return passes;
  }
};

/// Costs of switching a colocated GPU between training and rollout.
struct ColocationSpec {
  double host_bandwidth_bytes_per_s = 25e9;  ///< GPU <-> host memory, per GPU (PCIe)
  double optimizer_bytes_per_param = 12.0;   ///< fp32 master + Adam m, v offloaded to host
};

struct WeightSyncSpec {
  WeightSyncMethod method = WeightSyncMethod::broadcast;
  Precision precision = Precision::bf16;
  /// What each instance's engine spends loading an update beyond its bytes (calls × per call).
  EngineLoadSpec engine_load;
};

/// The orchestration policy (sim/engine/policies/) and its own parameters (`rlsim list policies`).
using PolicySpec = PluginSpec;

struct Scenario {
  std::string name;
  std::string file;
  uint64_t seed = 1;
  ModelArch model;
  ClusterSpec cluster;
  WorkloadSpec workload;
  RolloutSpec rollout;
  TrainingSpec training;
  WeightSyncSpec weight_sync;
  ColocationSpec colocation;
  PolicySpec policy{"disaggregated"};
  LabelsSpec labels;                  ///< capability tags for the `labels` policy
  FaultsSpec faults;                  ///< failures injected during the run
  PluginSpec cost_model{"roofline"};  ///< registered cost model (models/cost/cost_model_registry.h)
  std::string profile;                ///< calibrated hardware profile (path) for the "profile" model
  /// Where the inference pool uses the profile's engine terms outside their fitted range, one line
  /// per field (set by the loader: sim/scenario/profile_range_check.h); empty when nowhere.
  std::vector<std::string> profile_range_notes;
};

}  // namespace rlsim
