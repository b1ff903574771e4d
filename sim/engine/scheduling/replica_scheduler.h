// ReplicaScheduler: the extension point that decides, at every iteration boundary of one inference
// replica, what its next iteration does: which waiting calls join the running batch, which running
// sequences prefill and how many of their tokens, which decode and for how many iterations, and
// which are preempted when KV runs out. Contract:
//  - When: `schedule` is called by the instance's actor at each iteration boundary, after the
//    messages that arrived are handled, and never while the instance is out of rollout (preempted,
//    paused, failed). No simulated time passes inside it; it makes no SimGrid calls.
//  - What it may change in the ReplicaState: move sequences between `waiting` and `running` and
//    reorder them; set a sequence's `kv_tokens`, `needs_prefill` and `swapped`, its call's
//    `prefilled_tokens` and `preemptions`, its `prefill_left`; take from, put back in and evict from
//    `prefix_cache`; count in `stats`. It must not change `remaining` or any time stamp: the instance runs
//    the plan and accounts what was generated.
//  - What it returns: an IterationPlan, which the instance runs in this order: the swap-out of KV
//    preempted to host memory, then the prefill work (its restores of swapped KV first) or the
//    decode stretch. A plan with both prefill work and decoding sequences is ONE iteration (a
//    mixed forward pass: `decode_iterations` 1), as chunked prefill batches them. Indices in the
//    plan refer to `running` as `schedule` left it. A plan with nothing to do (`idle()`) means the
//    replica waits for the next message.
//  - Units: tokens (KV slots) and iterations; a scheduler sees no seconds (InstanceTime costs
//    the plan, sim/engine/instance_time.h).
// Implementations live beside this header and register by name with the Registry template
// (RLSIM_REGISTER_REPLICA_SCHEDULER); InstanceConfig::scheduler names the one an instance uses.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/registry/param_schema.h"
#include "models/registry/registry.h"
#include "sim/engine/scheduling/replica_state.h"
#include "sim/scenario/plugins.h"  // ReplicaSchedulerRegistry

namespace rlsim {

/// What a scheduler must respect on its replica.
struct SchedulerLimits {
  int max_batch = 0;                ///< running sequences at most
  double kv_capacity_tokens = 0.0;  ///< KV slots of the whole replica
  bool swap_on_preempt = false;     ///< out of KV: the preempted KV goes to host memory (else recompute)
};

/// Prefill of one running sequence in this iteration.
struct PrefillWork {
  size_t sequence = 0;           ///< index in `running`
  double tokens = 0.0;           ///< prompt tokens computed; for a restore, the KV tokens copied back
  double context_tokens = 0.0;   ///< tokens already in KV that they attend to (prefill only)
  bool restore = false;          ///< the sequence's KV comes back from host memory instead
  bool completes_prompt = true;  ///< the prompt's last chunk: the sequence's first token comes out
};

/// One iteration's work, as a scheduler decided it.
struct IterationPlan {
  double swap_out_tokens = 0.0;      ///< KV tokens of preempted sequences moved to host memory first
  long preempted = 0;                ///< sequences sent back to `waiting` at this boundary
  std::vector<PrefillWork> prefill;  ///< run as one forward pass (with `decode` when both are set)
  std::vector<size_t> decode;        ///< indices in `running` of the sequences that decode
  long decode_iterations = 0;  ///< a stretch of up to this many (1 with prefill); a message cuts it short

  bool idle() const { return preempted == 0 && prefill.empty() && decode_iterations == 0; }
};

class ReplicaScheduler {
 public:
  virtual ~ReplicaScheduler() = default;
  /// Plans the next iteration of `replica` (see the contract above).
  virtual IterationPlan schedule(ReplicaState& replica) = 0;
  /// The longest prompt (tokens to compute) the engine modelled accepts, where it refuses longer
  /// ones; unset: any prompt runs.
  virtual std::optional<double> longest_prompt_tokens() const { return std::nullopt; }
};

/// The scheduler `name` (registered: the scenario loader checks names) for a replica with `limits`,
/// with `params` read against its schema (unset: the defaults of its schema).
std::unique_ptr<ReplicaScheduler> make_replica_scheduler(const std::string& name,
                                                         const std::optional<ParamValues>& params,
                                                         const SchedulerLimits& limits);

}  // namespace rlsim

/// Registers `Type` (constructible from (const ParamValues&, const SchedulerLimits&)) under
/// `entry_name`, reading the parameters of `entry_schema`.
#define RLSIM_REGISTER_REPLICA_SCHEDULER(Type, entry_name, entry_description, entry_schema)       \
  static const bool rlsim_replica_scheduler_registered_##Type =                                   \
      ::rlsim::ReplicaSchedulerRegistry::instance().add(                                          \
          {.name = entry_name,                                                                    \
           .description = entry_description,                                                      \
           .params = entry_schema,                                                                \
           .make = [](const ::rlsim::ParamValues& params, const ::rlsim::SchedulerLimits& limits) \
               -> std::unique_ptr<::rlsim::ReplicaScheduler> {                                    \
             return std::make_unique<Type>(params, limits);                                       \
           }})
