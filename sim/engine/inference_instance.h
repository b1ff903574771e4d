// InferenceInstance: one model replica on a tensor-parallel GPU group, serving LLM calls with
// continuous batching (vLLM-style): admission up to `max_batch` sequences while KV fits, one
// prefill exec for newly admitted calls, then decode. Event per request, not per token: a decode
// stretch up to the next completion (or KV exhaustion) is one Exec; an arriving message interrupts
// it, the iterations done are accounted, the current iteration is finished, and the plan is redone.
// When KV runs out the newest sequence is preempted (recompute: re-prefilled later; swap: its KV
// goes to host memory and comes back). A KV prefix cache keeps finished turns' KV, evicted LRU.
// Label scheduling takes an instance away from rollout with a `preempt` message: at the next
// iteration boundary it saves its sequences' KV to host memory, drops it for recompute, or hands
// the sequences to other instances; then it reports on the message's ack mailbox and pauses, handing any call that arrives to other
// instances, until `resume` restarts it. Generated tokens are never lost, so a preempted sequence
// resumes with exactly its remaining tokens plus the save/restore (or re-prefill) cost. A `fail`
// message (a fault) loses everything in flight: its calls start over on other instances.
#pragma once

#include <simgrid/s4u.hpp>

#include <deque>
#include <functional>
#include <list>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/cost/cost_model.h"
#include "models/timing/decode_iteration_time.h"
#include "models/hardware.h"
#include "models/model_arch.h"
#include "sim/afd/afd_iteration_table.h"
#include "sim/engine/request.h"
#include "sim/engine/rl_context.h"
#include "sim/platform/timeline.h"

namespace rlsim {

struct InstanceConfig {
  const ModelArch* model = nullptr;
  const HardwareSpec* card = nullptr;
  const CostModel* cost = nullptr;
  int tp = 1;
  int max_batch = 256;
  Precision weights = Precision::bf16;
  Precision kv = Precision::bf16;
  double kv_capacity_tokens = 0.0;      ///< KV slots of the whole group
  bool prefix_cache = true;
  bool swap_on_preempt = false;         ///< false: recompute
  double swap_bytes_per_s = 25e9;       ///< host link per GPU for KV swap
  double scale_up_bytes_per_s = 0.0;    ///< TP all-reduce link
  double scale_up_latency_s = 0.0;
  double output_bytes_per_token = 4.0;  ///< reply payload (token ids)
  double restart_s = 0.0;               ///< reloading after a fault is repaired
  /// Decode iteration times of this model on this card and TP (shared by the instances alike;
  /// unset for AFD instances).
  std::shared_ptr<const DecodeIterationTime> decode_cost;
  /// Set for an AFD instance: its decode iteration times, from the layer-level AFD simulation
  /// (they include the attention-FFN transfers; there is no TP all-reduce). Prefill is costed as
  /// on the attention GPUs as one TP group of `tp`.
  const AfdIterationTable* afd_table = nullptr;
};

/// KV slots left for the cache on a group of `tp` cards after weights and an activation reserve
/// (`activation_fraction` of memory). Zero or less means the model does not fit.
double kv_capacity_tokens(const ModelArch& model, const HardwareSpec& card, int tp, Precision weights, Precision kv,
                          double activation_fraction);
/// The same for an AFD instance's `attention_gpus` cards, each holding the attention weights only.
double afd_kv_capacity_tokens(const ModelArch& model, const HardwareSpec& card, int attention_gpus, Precision weights,
                              Precision kv, double activation_fraction);

struct InstanceStats {
  long preemptions = 0;
  long prefix_hits = 0;
  long overcommitted_calls = 0;  ///< calls larger than the whole KV capacity, run alone
  double prefix_tokens_saved = 0.0;
};

class InferenceInstance {
 public:
  InferenceInstance(int index, GpuGroup group, InstanceConfig config, Timeline& timeline,
                    std::function<void(const LlmRequest&)> on_complete);

  simgrid::s4u::Mailbox* mailbox() const { return mailbox_; }
  const GpuGroup& group() const { return group_; }
  const InstanceStats& stats() const { return stats_; }
  int weight_version() const { return version_; }
  /// Current step label used on the timeline (set by the policy).
  void set_step(int step) { step_ = step; }
  /// Where calls go that this instance gives up (preemption) or receives while paused; without a
  /// handler it keeps them.
  void set_displaced_handler(std::function<void(LlmRequest*)> handler) { on_displaced_ = std::move(handler); }

  /// The actor body: serves until a stop message arrives and all work is done.
  void serve();

 private:
  struct Sequence {
    LlmRequest* request = nullptr;
    double remaining = 0.0;  ///< tokens still to generate
    double kv_tokens = 0.0;  ///< KV slots held (or to restore)
    bool needs_prefill = true;
    bool swapped = false;
  };

  void handle(InstanceMessage* message);
  /// Gives `s`'s call to the displaced handler, carrying the tokens it already generated.
  void displace(const Sequence& s);
  /// Acts on a pending preempt message: stops, reports, and pauses until resumed.
  void stop_for_preemption();
  void pause_until_resumed();
  /// A fault: gives up every call with its generated tokens lost, sits out the repair, reloads.
  void fail_and_recover();
  void post_receive();
  void drain_arrivals();
  double admit();                 ///< returns prefill seconds for newly admitted sequences (restores included)
  bool preempt_newest();
  double iteration_seconds(double batch, double mean_context) const;
  double prefill_seconds(const Sequence& s) const;
  void run_busy(double seconds, GpuState state);
  /// Runs a decode stretch of up to `iterations`; returns the iterations actually done.
  /// `iteration_s` is the stretch's mean iteration, `first_s` its first (shortest) one.
  long decode(long iterations, double iteration_s, double first_s);
  void advance(long iterations);
  void complete(Sequence& s);
  void cache_prefix(const LlmRequest& r);
  /// Removes `trajectory`'s cached prefix from the cache; returns its tokens (0: none cached).
  double take_prefix(int trajectory);
  void put_back_prefix(int trajectory, double tokens);
  double kv_used() const;

  int index_;
  GpuGroup group_;
  InstanceConfig config_;
  Timeline& timeline_;
  std::function<void(const LlmRequest&)> on_complete_;
  simgrid::s4u::Mailbox* mailbox_;
  simgrid::s4u::CommPtr receive_;
  std::deque<simgrid::s4u::CommPtr> replies_;  ///< replies sent, not yet retired (sim/engine/transport/activity_retirement.h)
  InstanceMessage* arrived_ = nullptr;
  std::deque<Sequence> waiting_;
  std::vector<Sequence> running_;
  std::list<std::pair<int, double>> prefix_lru_;  ///< (trajectory, cached tokens), most recent first
  std::unordered_map<int, std::list<std::pair<int, double>>::iterator> prefix_index_;
  double prefix_cached_tokens_ = 0.0;
  int version_ = 0;
  int pending_version_ = -1;
  double pending_pause_s_ = 0.0;
  bool stopping_ = false;
  int step_ = 0;
  InstanceStats stats_;
  std::function<void(LlmRequest*)> on_displaced_;
  double restore_s_ = 0.0;  ///< part of admit()'s answer that restores swapped-out KV
  bool preempting_ = false;  ///< a preempt message is being acted on
  bool paused_ = false;
  Preemption preemption_ = Preemption::save_kv;
  simgrid::s4u::Mailbox* preempt_ack_ = nullptr;
  int resume_version_ = 0;
  double failed_until_ = -1.0;  ///< set by a fail message
  double resume_pause_s_ = 0.0;
};

}  // namespace rlsim
