// The scenario schema: each section's fields, units and ranges are declared once here; defaults
// are the member initialisers of the structs in scenario.h (read from a default-constructed one),
// and a plug-in's parameters come from its registry entry (param_reader.h).
#include "sim/scenario/scenario_loader.h"

#include <algorithm>
#include <cassert>
#include <filesystem>
#include <set>

#include "models/afd/afd_stages.h"
#include "models/cost/cost_model_registry.h"
#include "models/units.h"
#include "sim/scenario/cluster_reader.h"
#include "sim/scenario/context_window_check.h"
#include "sim/scenario/distribution_reader.h"
#include "sim/scenario/fault_reader.h"
#include "sim/scenario/labels_reader.h"
#include "sim/scenario/memory_check.h"
#include "sim/scenario/parallelism_check.h"
#include "sim/scenario/param_reader.h"
#include "sim/scenario/plugins.h"
#include "sim/scenario/profile_loader.h"
#include "sim/scenario/profile_range_check.h"
#include "sim/scenario/resource_limits.h"
#include "sim/scenario/scenario_header.h"
#include "sim/scenario/trajectory_replay_reader.h"
#include "sim/scenario/yaml_reader.h"

namespace rlsim {
namespace {

/// The largest single LLM call the workload can make (its prompt and output, the least context it
/// needs) must fit in one instance's KV cache; unbounded distributions are not checked here.
void check_largest_call_fits(const Scenario& s, const YamlReader& workload) {
  const WorkloadSpec& w = s.workload;
  double tokens = 0.0;
  std::string what;
  if (!w.replayed.empty()) {
    for (const ReplayedTrajectory& t : w.replayed)
      for (const ReplayedTurn& turn : t.turns)
        tokens = std::max(tokens, turn.prompt_tokens + turn.output_tokens);
    what = "the recorded trajectories (their largest call)";
  } else {
    const double prompt = w.prompt_tokens.largest(), output = w.output_tokens.largest();
    if (prompt <= 0.0 || output <= 0.0) return;
    tokens = prompt + output;
    if (w.max_context_tokens > 0.0) tokens = std::min(tokens, w.max_context_tokens);
    what = "the largest prompt_tokens and output_tokens";
  }
  check_sequence_fits(
      s, tokens, what,
      workload.where(!w.replayed.empty()                                      ? "trajectories"
                     : w.prompt_tokens.largest() >= w.output_tokens.largest() ? "prompt_tokens"
                                                                              : "output_tokens"));
}

constexpr int64_t kMaxCount = 1'000'000;

WorkloadSpec read_workload(YamlReader& r, const std::string& scenario_path) {
  const WorkloadSpec d;
  WorkloadSpec w;
  w.steps = static_cast<int>(r.integer_or({"steps", "RL steps to simulate", "steps"}, d.steps, 1, 100000));
  w.prompts_per_step = static_cast<int>(
      r.integer({"prompts_per_step", "prompts per RL step (the batch of prompts)", "prompts"}, 1, kMaxCount));
  w.samples_per_prompt = static_cast<int>(r.integer_or(
      {"samples_per_prompt", "trajectories sampled per prompt (GRPO group size)", "trajectories"},
      d.samples_per_prompt, 1, 4096));
  r.describe({"trajectories",
              "a JSONL file of recorded trajectories (relative to the scenario) replayed instead of the "
              "length distributions below"},
             {"", "file", "", "none", "", "", {}});
  if (r.has("trajectories")) {
    // Recorded trajectories replace the length distributions (trajectory_replay_reader.h).
    w.trajectories_file = r.text("trajectories");
    w.trajectories_path =
        input_file_beside(r, "trajectories", w.trajectories_file, scenario_path, "trajectories file");
    w.replayed = read_trajectories_jsonl(w.trajectories_path);
    for (const char* key : {"turns", "prompt_tokens", "output_tokens", "observation_tokens", "tool_latency",
                            "max_context_tokens", "length_schedule"}) {
      if (r.has(key))
        r.fail(key, std::string("expected no ") + key +
                        " with workload.trajectories: the recordings give the lengths");
    }
    r.finish();
    return w;
  }
  w.turns = read_distribution(r, {"turns", "LLM calls per trajectory", "calls"}, std::nullopt, d.turns, 1.0,
                              kMaxTurnsPerTrajectory);
  w.prompt_tokens = read_distribution(r, {"prompt_tokens", "first-turn prompt length", "tokens"},
                                      std::nullopt, d.prompt_tokens, 1.0, kMaxTokensPerSequence);
  w.output_tokens = read_distribution(r, {"output_tokens", "tokens generated per LLM call", "tokens"},
                                      std::nullopt, d.output_tokens, 1.0, kMaxTokensPerSequence);
  w.observation_tokens =
      read_distribution(r, {"observation_tokens", "tokens a tool appends before the next call", "tokens"},
                        std::nullopt, d.observation_tokens, 0.0, kMaxTokensPerSequence);
  w.tool_latency_s = read_distribution(r, {"tool_latency", "time one tool call takes between two LLM calls"},
                                       Quantity::duration, d.tool_latency_s, 0.0, kMaxToolLatencySeconds);
  int last_step = -1;
  for (YamlReader& point : r.map_list_or_empty(
           {"length_schedule",
            "the mean response length at chosen steps of a long run, for `rlsim forecast` (linear between "
            "them; `rlsim run` simulates output_tokens as written)"})) {
    LengthSchedulePoint p;
    p.where = point.where();
    p.step = static_cast<int>(
        point.integer({"step", "the training step this mean holds at", "steps"}, 0, 1'000'000));
    if (p.step <= last_step)
      point.fail("step", "expected steps in increasing order, found " + std::to_string(p.step) + " after " +
                             std::to_string(last_step));
    last_step = p.step;
    p.output_tokens_mean = point.number(
        {"output_tokens_mean", "the mean of output_tokens at that step (its shape and caps kept)", "tokens"},
        1.0, kMaxTokensPerSequence);
    point.finish();
    w.length_schedule.push_back(p);
  }
  w.max_context_tokens = static_cast<double>(r.integer_or(
      {"max_context_tokens", "a trajectory ends when its context would pass this (0: no limit)", "tokens"},
      static_cast<int64_t>(d.max_context_tokens), 0, 100'000'000));
  if (w.max_context_tokens > 0 && w.max_context_tokens <= w.prompt_tokens.nominal_mean()) {
    r.fail("max_context_tokens", "a context limit of " + format_number(w.max_context_tokens) +
                                     " tokens is not above the mean prompt (" +
                                     format_number(w.prompt_tokens.nominal_mean()) +
                                     " tokens): most trajectories would end before generating a token");
  }
  r.finish();
  return w;
}

AfdRolloutSpec read_afd_rollout(YamlReader& r, const RolloutSpec& rollout, const ClusterSpec& cluster) {
  const AfdRolloutSpec d;
  AfdRolloutSpec a;
  a.where = r.where();
  a.ffn_pool = r.text({"ffn_pool", "the pool whose GPUs run the FFN (experts) side of each AFD instance"});
  check_pool_reference(r, "ffn_pool", a.ffn_pool, cluster);
  if (a.ffn_pool == rollout.pool) {
    r.fail("ffn_pool", "expected a pool other than rollout.pool ('" + rollout.pool + "') for the FFN side");
  }
  const PoolSpec& attention = *cluster.pool(rollout.pool);
  const PoolSpec& ffn = *cluster.pool(a.ffn_pool);
  a.attention_gpus =
      static_cast<int>(r.integer_or({"attention_gpus", "attention GPUs per AFD instance (of rollout.pool)",
                                     "GPUs", "gpus_per_node of rollout.pool", "1 to rollout.pool's GPUs"},
                                    attention.gpus_per_node, 1, attention.gpus()));
  a.ffn_gpus = static_cast<int>(r.integer_or({"ffn_gpus", "FFN GPUs per AFD instance (of ffn_pool)", "GPUs",
                                              "gpus_per_node of ffn_pool", "1 to ffn_pool's GPUs"},
                                             ffn.gpus_per_node, 1, ffn.gpus()));
  if (attention.gpus() % a.attention_gpus != 0 || ffn.gpus() % a.ffn_gpus != 0 ||
      attention.gpus() / a.attention_gpus != ffn.gpus() / a.ffn_gpus) {
    r.fail("ffn_gpus", "expected pools that split into the same number of AFD instances, found " +
                           std::to_string(attention.gpus()) + " GPUs of '" + rollout.pool +
                           "' by attention_gpus " + std::to_string(a.attention_gpus) + " and " +
                           std::to_string(ffn.gpus()) + " GPUs of '" + a.ffn_pool + "' by ffn_gpus " +
                           std::to_string(a.ffn_gpus));
  }
  a.ffn_tp = static_cast<int>(
      r.integer_or({"ffn_tp", "FFN GPUs per expert group (1: EP over all FFN GPUs; t > 1: hybrid EP + TP)",
                    "GPUs", "", "1 to ffn_pool's gpus_per_node"},
                   d.ffn_tp, 1, ffn.gpus_per_node));
  const std::string grouping = afd_ffn_group_problem(a.ffn_tp, a.ffn_gpus, 0, ffn.gpus_per_node);
  if (!grouping.empty()) r.fail("ffn_tp", grouping);
  a.micro_batches = static_cast<int>(r.integer_or(
      {"micro_batches", "ping-pong micro-batches overlapping attention, FFN and transfers", "micro-batches"},
      d.micro_batches, 1, 64));
  a.dispatch =
      read_precision(r, {"dispatch", "precision of the activations sent to the FFN side"}, d.dispatch);
  a.combine = read_precision(r, {"combine", "precision of the expert outputs sent back"}, d.combine);
  r.finish();
  return a;
}

/// Inference pipeline stages: each holds at least one layer (checked against the model later,
/// where it is known); this bounds what the reader accepts.
constexpr int64_t kMaxPipelineStages = 1024;

void check_pipeline_stages(const YamlReader& r, const RolloutSpec& s, const PoolSpec& pool) {
  const int per_instance = s.gpus_per_instance();
  if (pool.gpus() % per_instance != 0)
    r.fail("pp", "tp × pp (" + std::to_string(s.tp) + " × " + std::to_string(s.pp) + " = " +
                     std::to_string(per_instance) + " GPUs an instance) must divide the " +
                     std::to_string(pool.gpus()) + " GPUs of pool '" + pool.name + "'");
}

}  // namespace

RolloutSpec read_rollout(YamlReader& r, const ClusterSpec& cluster, const Catalog& catalog,
                         const ModelArch& model) {
  const RolloutSpec d;
  RolloutSpec s;
  s.pool = r.text_or({"pool", "the pool the inference instances run on", "", "the first pool"},
                     cluster.pools.front().name);
  check_pool_reference(r, "pool", s.pool, cluster);
  const PoolSpec& pool = *cluster.pool(s.pool);
  s.tp =
      static_cast<int>(r.integer_or({"tp",
                                     "tensor-parallel GPUs per inference instance (per pipeline stage when "
                                     "pp > 1): a divisor of the pool's gpus_per_node, since an instance's TP "
                                     "group stays within one node",
                                     "GPUs"},
                                    d.tp, 1, kMaxCount));
  const std::string node = " GPUs of a node of pool '" + pool.name + "' (gpus_per_node)";
  if (s.tp > pool.gpus_per_node)
    r.fail("tp", "tp " + std::to_string(s.tp) + " needs more than the " + std::to_string(pool.gpus_per_node) +
                     node + ": an instance's TP group stays within one node; expected a divisor of " +
                     std::to_string(pool.gpus_per_node) + ", or cluster.pools." + pool.name +
                     ".gpus_per_node " + std::to_string(s.tp) + " or a multiple of it");
  if (pool.gpus_per_node % s.tp != 0)
    r.fail("tp", "tp " + std::to_string(s.tp) + " must divide the " + std::to_string(pool.gpus_per_node) +
                     node + ": an instance's TP group stays within one node");
  s.pp = static_cast<int>(r.integer_or({"pp",
                                        "pipeline stages per inference instance, each of tp GPUs holding "
                                        "consecutive layers (stages may sit on different nodes)",
                                        "stages"},
                                       d.pp, 1, kMaxPipelineStages));
  s.pp_where = r.has("pp") ? r.where("pp") : r.where();
  if (s.pp > 1) check_pipeline_stages(r, s, pool);
  s.max_batch = static_cast<int>(r.integer_or(
      {"max_batch", "sequences an instance decodes at once", "sequences"}, d.max_batch, 1, 1 << 20));
  s.max_model_len = read_max_model_len(r, model);
  s.weights = read_precision(r, {"weights", "precision of the served weights"}, d.weights);
  s.kv_cache = read_precision(r, {"kv_cache", "precision of the KV cache"}, d.kv_cache);
  s.router = read_plugin(r, "router", RouterRegistry::instance(), "router", d.router.name);
  s.prefix_cache = r.flag_or(
      {"prefix_cache",
       "keep KV for reuse, least recently used evicted first: a trajectory's between its turns, "
       "and a serve workload's shared system prompts or pooled prompts (workload.shared_prefix_tokens, "
       "workload.prompt_pool)"},
      d.prefix_cache);
  s.preemption =
      r.choice_or({"preemption", "what an instance does when its KV cache runs out"}, d.preemption);
  s.swap_bandwidth_bytes_per_s = r.quantity_or({"swap_bandwidth", "host link per GPU for swapped-out KV"},
                                               Quantity::bandwidth, d.swap_bandwidth_bytes_per_s);
  s.activation_memory_fraction = r.number_or(
      {"activation_memory_fraction", "share of card memory kept for activations and workspace, not KV"},
      d.activation_memory_fraction, 0.0, 0.9);
  s.engine =
      r.text_or({"engine",
                 "engine preset: time beyond the kernels and the default batching (rlsim list engines; "
                 "scenarios/catalog/engines.yaml)"},
                d.engine);
  s.engine_overhead = catalog.engine(s.engine, r.has("engine") ? r.where("engine") : r.where());
  s.cuda_graphs =
      r.flag_or({"cuda_graphs",
                 "replay captured CUDA graphs where the engine preset does; false: every iteration "
                 "launches its kernels eagerly (vLLM's enforce_eager, verl's rollout.enforce_eager: "
                 "True, its default through 0.5)"},
                d.cuda_graphs);
  if (!s.cuda_graphs) s.engine_overhead.graph_max_tokens = 0;  // no iteration replays a graph
  s.scheduler = read_plugin(r,
                            {"scheduler",
                             "batching of each instance (rlsim list schedulers); default: the engine "
                             "preset's own (the batching column of rlsim list engines)"},
                            ReplicaSchedulerRegistry::instance(), "scheduler", s.engine_overhead.scheduler);
  const Field afd{"afd", "makes the instances attention-FFN-disaggregated (docs/afd.md); replaces tp"};
  r.describe(afd, {"", "mapping", "", "none", "", "", {}});
  if (r.has("afd")) {
    YamlReader a = r.map(afd);
    s.afd = read_afd_rollout(a, s, cluster);
    if (s.tp != 1)
      r.fail("tp",
             "expected no rollout.tp with rollout.afd (an AFD instance's GPUs are set by afd.attention_gpus "
             "and afd.ffn_gpus), found tp " +
                 std::to_string(s.tp));
    if (s.pp != 1)
      r.fail("pp", "expected no rollout.pp with rollout.afd (AFD instances are not pipelined), found pp " +
                       std::to_string(s.pp));
  }
  r.finish();
  return s;
}

namespace {

std::string dp_mismatch(const TrainingSpec& s, int gpus, const std::string& pools) {
  return "dp × tp × pp = " + std::to_string(static_cast<int64_t>(s.dp) * s.tp * s.pp) + " must equal the " +
         std::to_string(gpus) + " GPUs of " + pools;
}

/// `weight_sync.engine_load`, `.bucket` and `.per_call` (models/timing/engine_weight_load.h): the
/// per-call time defaults to the mode's published measurement. `bucket` counts under bucketed only,
/// neither under none: a resolved scenario writes every field, used or not.
EngineLoadSpec read_engine_load(YamlReader& sync) {
  EngineLoadSpec spec;
  spec.mode = sync.choice_or({"engine_load",
                              "how the engine takes each update: none (its bytes only), per_tensor (a call "
                              "per checkpoint tensor) or "
                              "bucketed (a call per bucket of packed tensors)"},
                             spec.mode);
  const bool per_tensor = spec.mode == EngineLoadMode::per_tensor;
  spec.bucket_bytes =
      sync.quantity_or({"bucket", "engine_load bucketed: bytes packed into one call", "", "512 MiB"},
                       Quantity::bytes, spec.bucket_bytes);
  spec.per_call_s =
      sync.quantity_or({"per_call", "what one call of the engine's load costs beyond its bytes", "",
                        "32 ms per_tensor (SGLang's update_weights_from_distributed), 0.30 s bucketed (verl "
                        "pull request 2418)"},
                       Quantity::duration, per_tensor ? kPerTensorCallS : kBucketCallS, true);
  if (spec.mode == EngineLoadMode::none) spec.per_call_s = 0.0;
  return spec;
}

/// `rollout_pool`: under `colocated` over two pools, training runs on the GPUs of both, so dp may
/// count them (checked against the policy once it is read: check_training_dp).
TrainingSpec read_training(YamlReader& r, const ClusterSpec& cluster, const std::string& rollout_pool) {
  const TrainingSpec d;
  TrainingSpec s;
  s.pool = r.text_or({"pool", "the pool that trains", "", "the last pool"}, cluster.pools.back().name);
  check_pool_reference(r, "pool", s.pool, cluster);
  const PoolSpec& pool = *cluster.pool(s.pool);
  s.tp = static_cast<int>(
      r.integer_or({"tp", "tensor-parallel degree of training", "GPUs", "", "1 to the pool's gpus_per_node"},
                   d.tp, 1, pool.gpus_per_node));
  s.pp =
      static_cast<int>(r.integer_or({"pp", "pipeline-parallel stages of training", "stages"}, d.pp, 1, 1024));
  s.dp = static_cast<int>(
      r.integer_or({"dp", "data-parallel replicas of training", "replicas", "the pool's GPUs / (tp × pp)"},
                   pool.gpus() / (s.tp * s.pp) > 0 ? pool.gpus() / (s.tp * s.pp) : 1, 1, kMaxCount));
  const int64_t gpus = static_cast<int64_t>(s.dp) * s.tp * s.pp;
  const int both = pool.gpus() + (rollout_pool != s.pool ? cluster.pool(rollout_pool)->gpus() : 0);
  if (gpus != pool.gpus() && gpus != both) r.fail("dp", dp_mismatch(s, pool.gpus(), "pool '" + s.pool + "'"));
  s.algorithm = r.choice_or(
      {"algorithm", "RL algorithm: which extra forward passes (reference, critic) each step pays"},
      d.algorithm);
  s.mini_batches = static_cast<int>(
      r.integer_or({"mini_batches", "optimizer steps per RL step", "mini-batches"}, d.mini_batches, 1, 4096));
  s.weights = read_precision(r, {"precision", "precision of the trained weights and their sync"}, d.weights);
  s.sequence_tokens = r.number_or(
      {"sequence_tokens",
       "tokens per training sequence and micro-batch: the step's tokens train as sequences of this "
       "length, which sets the attention span of the training FLOPs and the activation memory",
       "tokens"},
      d.sequence_tokens, 1, 1e7);
  s.sharding = r.choice_or(
      {"sharding", "ZeRO/FSDP sharding of weights, gradients and optimizer states over DP (zero3 = FSDP)"},
      d.sharding);
  s.recompute =
      r.choice_or({"recompute", "activation recomputation: less memory for more FLOPs"}, d.recompute);
  s.offload_optimizer = r.flag_or(
      {"offload_optimizer", "keep optimizer states in host memory (ZeRO-Offload)"}, d.offload_optimizer);
  s.balance = r.choice_or(
      {"balance",
       "how each mini-batch's sequences are split over the data-parallel ranks, whose slowest sets the "
       "optimizer step: tokens (longest first to the least loaded rank: verl's balance_batch, NeMo RL's "
       "packing) or none (contiguous chunks by count, in the order the prompts were launched)"},
      d.balance);
  s.attention_kernel = r.choice_or(
      {"attention_kernel",
       "the attention kernel training runs, priced at its measured forward and backward throughput "
       "(FlashAttention-3 paper, H100): flash2 (Hugging Face flash_attention_2: verl, OpenRLHF), cudnn "
       "(Transformer Engine: Megatron-Core, NeMo RL) or flash3"},
      d.attention_kernel);
  s.gradients = *parse_precision(r.choice_or(
      {"gradient_precision",
       "precision of the gradient buffers and of the DP gradient exchange (fp32: Megatron-LM's default "
       "with bf16 weights, FSDP2's reduce_dtype in verl and torchtitan)"},
      {"bf16", "fp32"}, std::string(to_string(d.gradients))));
  s.micro_batch_sequences = static_cast<int>(
      r.integer_or({"micro_batch_sequences",
                    "sequences of sequence_tokens in one micro-batch (activation memory)", "sequences"},
                   d.micro_batch_sequences, 1, 4096));
  s.sequence_parallel = r.flag_or(
      {"sequence_parallel",
       "split the activations outside tensor-parallel regions over TP (Megatron-LM sequence parallelism)"},
      d.sequence_parallel);
  s.attention_backend = r.choice_or(
      {"attention_backend",
       "flash: attention scores never stored (FlashAttention, cuDNN); unfused: the softmax is kept for "
       "backward unless recomputed"},
      d.attention_backend);
  s.dropout = r.flag_or({"dropout", "dropout layers, whose masks are kept for backward"}, d.dropout);
  s.reference_model = r.flag_or(
      {"reference_model",
       "keep a frozen reference model and run its forward pass each step (the KL term of GRPO and PPO; "
       "false for KL-free recipes such as DAPO)"},
      d.reference_model);
  s.rollout_log_probs = r.flag_or(
      {"rollout_log_probs",
       "take the old policy's log-probs from the rollout engine, which computed them while sampling, "
       "instead of a forward pass of the trainer (verl's fully async trainer does by default)"},
      d.rollout_log_probs);
  s.where = r.where();
  r.finish();
  return s;
}

/// LoadOptions::policy: `policy` replaces policy.name; parameters it does not take are dropped.
void switch_policy(YamlSource& source, const std::string& policy) {
  apply_override(source, "policy.name=" + policy);
  const PolicyRegistry::Entry* entry = PolicyRegistry::instance().find(policy);
  if (!entry) return;  // reported at policy.name by the loader, listing the valid names
  YAML::Node block = source.root["policy"];
  std::vector<std::string> dropped;
  for (const auto& item : block) {
    const std::string key = item.first.as<std::string>("");
    if (key != "name" && !declares(entry->params, key)) dropped.push_back(key);
  }
  for (const auto& key : dropped) block.remove(key);
}

/// The DP the policy trains with: `colocated` over two pools trains on both pools' GPUs, and
/// resolved.yaml says so; every other policy on the training pool's.
void check_training_dp(Scenario& s, YamlReader& training) {
  TrainingSpec& t = s.training;
  const int pool_gpus = s.cluster.pool(t.pool)->gpus();
  if (s.policy.name == "colocated" && s.rollout.pool != t.pool) {
    const int dp = training_dp_in_use(s);
    if (t.dp != dp && t.dp * t.tp * t.pp != pool_gpus)
      training.fail("dp", dp_mismatch(t, pool_gpus, "pool '" + t.pool + "'"));
    t.dp = dp;
    training.record("dp", YAML::Node(dp));
  } else if (t.dp * t.tp * t.pp != pool_gpus) {
    training.fail("dp", dp_mismatch(t, pool_gpus, "pool '" + t.pool + "'"));
  }
}

void check_every_rl_pool_used(const Scenario& s) {
  for (const auto& pool : s.cluster.pools) {
    if (s.rollout.afd && pool.name == s.rollout.afd->ffn_pool) continue;
    if (pool.name != s.rollout.pool && pool.name != s.training.pool) {
      throw InputError(pool.where, "pool '" + pool.name + "' is used by neither rollout.pool ('" +
                                       s.rollout.pool + "') nor training.pool ('" + s.training.pool + "')");
    }
  }
}

}  // namespace

void check_pool_reference(YamlReader& r, const std::string& key, const std::string& name,
                          const ClusterSpec& cluster) {
  if (cluster.pool(name)) return;
  std::vector<std::string> names;
  for (const auto& p : cluster.pools) names.push_back(p.name);
  std::string message = "pool '" + name + "' is not defined in cluster.pools";
  if (auto near = nearest_key(name, names)) message += "; did you mean '" + *near + "'?";
  r.fail(key, message + " Defined pools: " + join(names));
}

void read_cost_model(YamlReader& root, const std::string& path, const LoadOptions& options,
                     const Catalog& catalog, Scenario& s) {
  const Scenario d;
  // A calibrated profile: found as written (from the working folder), beside the scenario, or in
  // the rlsim tree (calibrate/profiles/h100.yaml works from anywhere).
  const Field profile{"profile",
                      "a calibrated hardware profile (rlsim calibrate): measured op times for its card, "
                      "found as written, beside the scenario or in the rlsim tree"};
  if (root.has("profile")) {
    const std::string written = root.text(profile);
    const std::filesystem::path data_dir = options.data_dir.empty() ? default_data_dir() : options.data_dir;
    for (const auto& candidate : {std::filesystem::path(written),
                                  std::filesystem::path(path).parent_path() / written, data_dir / written}) {
      if (std::filesystem::is_regular_file(candidate)) {
        s.profile = candidate.string();
        break;
      }
    }
    if (s.profile.empty())
      root.fail("profile", "profile file '" + written +
                               "' not found (as written, beside the scenario, or in " + data_dir.string() +
                               ")");
  } else {
    root.describe(profile, {"", "file", "", "none", "", "", {}});
    root.raw("profile");
  }
  s.cost_model = read_plugin(root,
                             {"cost_model", "how ops are priced (rlsim list cost-models)", "",
                              d.cost_model.name + ", or " + kProfileCostModel + " with a profile"},
                             CostModelRegistry::instance(), "cost model",
                             s.profile.empty() ? d.cost_model.name : kProfileCostModel);
  if (s.cost_model.name == kProfileCostModel && s.profile.empty()) {
    root.fail("cost_model", "cost_model 'profile' needs a 'profile:' file");
  }
  make_cost_model(s.cost_model, s.profile);  // a profile the model cannot use fails here, as in `run`
  if (!s.profile.empty()) check_profile_fits(root, "profile", s.profile, s.cluster, catalog);
}

void check_profile_fits(YamlReader& r, const std::string& key, const std::string& profile,
                        const ClusterSpec& cluster, const Catalog& catalog) {
  const HardwareProfile read = load_profile(profile);
  check_profile_engines(read, catalog);
  const std::string& card = read.card;
  std::vector<std::string> pools;
  for (const auto& pool : cluster.pools) {
    if (pool.card.name == card) return;
    pools.push_back(pool.name + " (" + pool.card.name + ")");
  }
  r.fail(key, "profile '" + profile + "' was measured on " + card + ", which no pool uses (" + join(pools) +
                  "): it would price nothing; give a profile of one of these cards or leave it out");
}

Catalog load_scenario_catalog(YamlReader& root, const std::string& path, const LoadOptions& options) {
  // The scenario's own files (relative to it) extend or replace built-in rows.
  Catalog catalog = load_builtin_catalog(options.data_dir.empty() ? default_data_dir() : options.data_dir);
  root.describe(
      {"catalog",
       "extra hardware, model and engine catalog files (relative to the scenario); their rows "
       "replace built-ins of the same name, and a row naming a known card or model changes only the "
       "fields it gives ({name: H20, usd_per_hour: 1.2}; a model's attention or ffn block whole)"},
      {"", "list of files", "", "[]", "", "", {}});
  YAML::Node extra = root.raw("catalog");
  if (extra && !extra.IsNull()) {
    std::vector<std::string> files = root.text_list("catalog");
    for (const auto& file : files) {
      auto full = std::filesystem::path(path).parent_path() / file;
      if (!std::filesystem::exists(full))
        root.fail("catalog", "catalog file '" + full.string() + "' does not exist");
      load_catalog_file(full.string(), catalog);
    }
  }
  return catalog;
}

void apply_load_overrides(YamlSource& source, const LoadOptions& options) {
  for (const auto& path : options.unsets) remove_field(source, path);
  for (const auto& assignment : options.overrides) apply_override(source, assignment);
  for (const auto& assignment : options.params) apply_override(source, assignment, "--param");
}

std::string scenario_kind(const std::string& path, const LoadOptions& options,
                          const std::vector<std::string>& kinds) {
  assert(!kinds.empty() && "the CLI registers at least one scenario kind");
  YamlSource source = load_yaml_file(path);
  apply_load_overrides(source, options);
  YAML::Node ignored(YAML::NodeType::Map);
  YamlReader root(source, source.root, "", ignored);
  return root.choice_or("kind", kinds, kinds.front());
}

LoadedScenario load_scenario(const std::string& path, const LoadOptions& options) {
  YamlSource source = load_yaml_file(path);
  source.fields = options.fields;
  apply_load_overrides(source, options);
  if (!options.policy.empty()) switch_policy(source, options.policy);

  YAML::Node resolved(YAML::NodeType::Map);
  YamlReader root(source, source.root, "", resolved);
  const Scenario d;
  LoadedScenario loaded;
  Scenario& s = loaded.scenario;
  s.file = path;
  read_name_and_seed(root, path, options, d.seed, s.name, s.seed);

  if (const auto kind = root.choice_or(kKindField, ScenarioFileKind::rl); kind != ScenarioFileKind::rl) {
    root.fail("kind", std::string(kind == ScenarioFileKind::afd ? "this is an AFD scenario"
                                                                : "this is a serving scenario") +
                          " (kind: " + std::string(enum_name(kind)) +
                          "); it is loaded by its own loader, not load_scenario");
  }
  loaded.catalog = load_scenario_catalog(root, path, options);

  const std::string model = root.text(kModelField);
  s.model = loaded.catalog.model(model, root.where("model"));

  YamlReader cluster = root.map(kClusterField);
  s.cluster = read_cluster(cluster, loaded.catalog);
  YamlReader workload = root.map({"workload", "what one RL step generates and trains on"});
  s.workload = read_workload(workload, path);
  YamlReader rollout =
      root.map_or_empty({"rollout", "the inference instances that generate the trajectories"});
  s.rollout = read_rollout(rollout, s.cluster, loaded.catalog, s.model);
  s.workload.max_model_len = static_cast<double>(s.rollout.max_model_len);
  YamlReader training =
      root.map_or_empty({"training", "the trainer's layout, algorithm and memory strategy"});
  s.training = read_training(training, s.cluster, s.rollout.pool);
  if (s.rollout.afd && s.training.pool == s.rollout.afd->ffn_pool) {
    training.fail("pool", "expected a training pool other than rollout.afd.ffn_pool ('" +
                              s.rollout.afd->ffn_pool + "'): its GPUs serve the AFD instances' FFN side");
  }

  YamlReader sync = root.map_or_empty({"weight_sync", "how new weights reach the inference instances"});
  s.weight_sync.method = sync.choice_or(
      {"method", "broadcast (binomial tree) or pipelined ring from the trainer to every instance"},
      d.weight_sync.method);
  s.weight_sync.precision = read_precision(
      sync, {"precision", "precision of the weights sent", "", "training.precision"}, s.training.weights);
  s.weight_sync.engine_load = read_engine_load(sync);
  sync.finish();

  YamlReader colocation =
      root.map_or_empty({"colocation", "costs of switching a colocated GPU between training and rollout"});
  s.colocation.host_bandwidth_bytes_per_s =
      colocation.quantity_or({"host_bandwidth", "GPU <-> host memory per GPU (PCIe) for offload and onload"},
                             Quantity::bandwidth, d.colocation.host_bandwidth_bytes_per_s);
  s.colocation.optimizer_bytes_per_param = colocation.number_or(
      {"optimizer_bytes_per_param",
       "optimizer bytes per parameter offloaded to the host (fp32 master + Adam m, v)", "B"},
      d.colocation.optimizer_bytes_per_param, 0.0, 64.0);
  colocation.finish();

  YamlReader policy = root.map_or_empty({"policy", "the orchestration policy and its own parameters"});
  s.policy = read_plugin_block(policy, PolicyRegistry::instance(), "policy", d.policy.name);
  policy.finish();
  YamlReader labels =
      root.map_or_empty({"labels", "capability tags of nodes for the labels policy (docs/labels.md)"});
  s.labels = read_labels(labels, s);
  YamlReader faults = root.map_or_empty({"faults", "failures injected during the run and how work recovers"});
  s.faults = read_faults(faults, s.cluster);
  read_cost_model(root, path, options, loaded.catalog, s);

  check_every_rl_pool_used(s);
  check_rollout_tensor_parallel(s, rollout);
  check_training_tensor_parallel(s, training);
  check_resource_limits(s, workload, cluster);
  check_training_dp(s, training);
  if (options.check_memory) {
    check_trajectory_context(s, workload, rollout);
    check_rollout_memory(s, rollout);
    check_largest_call_fits(s, workload);
    check_training_memory(s, training);
  }
  root.finish();
  if (!s.profile.empty()) {
    s.profile_range_notes = engine_range_notes(
        s.rollout, "rollout", s.cluster.pool(s.rollout.pool)->card.name, load_profile(s.profile));
  }

  loaded.resolved_yaml = resolved_yaml_text(resolved);
  return loaded;
}

}  // namespace rlsim
