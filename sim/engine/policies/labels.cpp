// `labels`: label (tag) scheduling with preemption. Nodes carry capability tags (labels_spec.h).
// Every rollout-tagged node runs inference instances, fed step by step as in `overlap` (or, with
// labels.launch rolling, a trajectory per finished one), at most policy.max_staleness weight
// versions ahead of the trainer. While the trainer waits for a full batch, its train-tagged
// nodes roll out too. When the batch is ready they are preempted — their in-flight calls have
// their KV saved, dropped for recompute, or migrated (labels.preemption) — switch to training
// (optimizer state in), train, send the new weights to the rollout-only instances, switch back
// (optimizer state out, weights in) and resume. Rollout-only nodes keep generating, one step
// off-policy, meanwhile. With labels.interruptible false no train-tagged node is lent (see
// keep_for_training): what is left is pipeline overlap on the rollout-only nodes — with step
// launches, exactly the schedule of `overlap`.
#include <map>
#include <simgrid/s4u.hpp>

#include "sim/engine/policies/label_layout.h"
#include "sim/engine/policies/phase_switch.h"
#include "sim/engine/policies/policy.h"
#include "sim/engine/policies/rl_step.h"
#include "sim/engine/policies/weight_lag.h"
#include "sim/engine/trainer.h"
#include "sim/engine/weight_sync.h"
#include "sim/engine/workload.h"

namespace rlsim {
namespace sg4 = simgrid::s4u;
namespace {

/// Feeds the rollout as labels.launch says — whole steps (`step`, the pipeline of `overlap`) or
/// one trajectory per finished one (`rolling`) — never more than policy.max_staleness weight
/// versions ahead of the trainer; sorts finished trajectories into per-step batches.
class Launcher {
 public:
  Launcher(RlContext& ctx, RolloutService& service, int max_staleness)
      : ctx_(ctx),
        service_(service),
        rolling_(ctx.scenario.labels.launch == LaunchMode::rolling),
        staleness_(max_staleness) {}

  /// Launches what is allowed with the trainer at weight version `version`.
  void launch_allowed(int version) {
    const WorkloadSpec& w = ctx_.scenario.workload;
    const int per_step = w.trajectories_per_step();
    if (!rolling_) {
      auto allowed = [&]() {
        return launched_ < per_step * w.steps && launched_ / per_step <= version + staleness_;
      };
      if (allowed() && finished_ == launched_) launched_ += launch_step(ctx_, service_, launched_ / per_step);
      // The next step is allowed but waits for this one to drain: idle GPUs wait on that choice.
      ctx_.monitor.launch_held(sg4::Engine::get_clock(), allowed() && finished_ < launched_);
      return;
    }
    while (launched_ < per_step * w.steps && launched_ - finished_ < per_step &&
           launched_ / per_step <= version + staleness_) {
      if (next_ == pending_.size()) {
        pending_ = sample_step(w, ctx_.rng, ctx_.next_trajectory);
        ctx_.next_trajectory += static_cast<int>(pending_.size());
        next_ = 0;
      }
      service_.launch(pending_[next_++], launched_ / per_step);
      ++launched_;
    }
  }

  /// Actor body: collects every trajectory; posts step k's batch on "label-batch-k" when full.
  void collect_all(const int& version) {
    const WorkloadSpec& w = ctx_.scenario.workload;
    const int per_step = w.trajectories_per_step();
    std::map<int, TrainingBatch> batches;
    while (finished_ < per_step * w.steps) {
      const TrajectoryResult result = service_.wait_finished();
      ++finished_;
      TrainingBatch& batch = batches[result.step];
      batch.add(result);
      if (batch.samples == per_step) {
        sg4::Mailbox::by_name("label-batch-" + std::to_string(result.step))
            ->put_init(new TrainingBatch(batch), 0)
            ->detach();
        batches.erase(result.step);
      }
      launch_allowed(version);
    }
  }

 private:
  RlContext& ctx_;
  RolloutService& service_;
  bool rolling_;
  int staleness_;                    ///< policy max_staleness
  std::vector<Trajectory> pending_;  ///< rolling: the step being sampled from
  size_t next_ = 0;
  int launched_ = 0;
  int finished_ = 0;
};

/// Work that cannot be interrupted frees a node only at its boundary; a batch is ready when the
/// slowest trajectory ends, so a lent node would hold the trainer until its own calls end. The
/// scheduler therefore lends no train-tagged node: they wait for data, as in `overlap`.
void keep_for_training(LabelLayout& layout) {
  std::vector<GpuGroup> kept;
  std::vector<int> rollout_only;
  for (int i : layout.rollout_only) {
    rollout_only.push_back(static_cast<int>(kept.size()));
    kept.push_back(layout.instances[static_cast<size_t>(i)]);
  }
  for (int i : layout.flexible) {
    const GpuGroup& g = layout.instances[static_cast<size_t>(i)];
    layout.idle_trainers.hosts.insert(layout.idle_trainers.hosts.end(), g.hosts.begin(), g.hosts.end());
    layout.idle_trainers.tracks.insert(layout.idle_trainers.tracks.end(), g.tracks.begin(), g.tracks.end());
  }
  layout.instances = std::move(kept);
  layout.rollout_only = std::move(rollout_only);
  layout.flexible.clear();
  layout.lent_trainers = GpuGroup{};
}

class LabelsPolicy : public Policy {
 public:
  explicit LabelsPolicy(const ParamValues& params) : lag_(params) {}

  void check(const Scenario& s) const override {
    if (s.rollout.afd) {
      throw InputError(s.rollout.afd->where,
                       "expected policy disaggregated, overlap or streaming with an AFD "
                       "rollout pool (rollout.afd), found 'labels', which moves GPUs between phases");
    }
    if (s.rollout.pp > 1) {
      throw InputError(s.rollout.pp_where,
                       "expected rollout.pp 1 with policy 'labels' (it lends single nodes, and a pipelined "
                       "instance may span several), found pp " +
                           std::to_string(s.rollout.pp));
    }
  }

  void run(RlContext& ctx) override {
    const Scenario& s = ctx.scenario;
    LabelLayout layout = label_layout(ctx);
    if (!s.labels.interruptible) keep_for_training(layout);
    RolloutService service(ctx, ctx.cost, layout.instances, ctx.monitor);
    Trainer trainer(ctx, ctx.cost, ctx.trainer, s.training.dp);
    service.start();
    const PhaseSwitchCosts costs = phase_switch_costs(s);
    const Preemption mode = s.labels.preemption;
    std::vector<sg4::Host*> sync_targets;
    for (int i : layout.rollout_only)
      sync_targets.push_back(layout.instances[static_cast<size_t>(i)].leader());

    int version = 0;  // weights after training step k are version k + 1
    Launcher launcher(ctx, service, lag_.max_staleness);
    launcher.launch_allowed(version);
    sg4::ActorPtr collector = sg4::Actor::create("label-collector", sg4::this_actor::get_host(),
                                                 [&launcher, &version]() { launcher.collect_all(version); });

    double previous_end = 0.0;
    for (int step = 0; step < s.workload.steps; ++step) {
      StepRecord record;
      record.step = step;
      record.start_s = previous_end;
      service.set_step(step);
      const double wait_start = sg4::Engine::get_clock();
      auto* batch = sg4::Mailbox::by_name("label-batch-" + std::to_string(step))->get<TrainingBatch>();
      const double ready = sg4::Engine::get_clock();
      ctx.record(layout.idle_trainers, GpuState::wait(WaitCause::train_waits_rollout), wait_start, ready,
                 step);

      // Take the train-tagged instances away from rollout; the first to stop wait for the last.
      const std::vector<double> stopped = service.preempt(layout.flexible, mode);
      const double all_stopped = sg4::Engine::get_clock();
      for (size_t n = 0; n < stopped.size(); ++n) {
        ctx.record(layout.instances[static_cast<size_t>(layout.flexible[n])],
                   GpuState::wait(WaitCause::train_waits_rollout), stopped[n], all_stopped, step);
      }
      run_switch(ctx, layout.lent_trainers, costs.to_train_s, step);
      const double train_start = sg4::Engine::get_clock();
      trainer.train(batch->sequence_tokens(), s.training.mini_batches, step);
      const double train_end = sg4::Engine::get_clock();
      sync_weights(trainer.gpus().leader(), sync_targets, trainer.weight_bytes(), s.weight_sync.method);
      const double sync_end = sg4::Engine::get_clock();
      ctx.record(ctx.trainer, GpuState::busy(Phase::weight_sync), train_end, sync_end, step);
      version = step + 1;
      service.update_weights(version, lag_.weight_swap_s + engine_load_pause_s(s), layout.rollout_only);
      run_switch(ctx, layout.lent_trainers, costs.to_rollout_s, step);
      service.resume(layout.flexible, version, engine_load_pause_s(s));
      // Launched after the resume, so the router spreads the new work over every instance.
      launcher.launch_allowed(version);

      record.end_s = sg4::Engine::get_clock();
      record.rollout_s = ready - wait_start;
      record.train_s = train_end - train_start;
      record.weight_sync_s = sync_end - train_end;
      record.switch_s = (train_start - ready) + (record.end_s - sync_end);
      record_step(ctx, record, *batch);
      previous_end = record.end_s;
      delete batch;
    }
    collector->join();
    stop_rollout(ctx, service);
  }

 private:
  WeightLag lag_;
};

}  // namespace
RLSIM_REGISTER_POLICY(
    LabelsPolicy, "labels",
    "tagged GPUs switch phase: train-tagged nodes roll out while training waits, are preempted to train",
    max_staleness_param(), weight_swap_param());
}  // namespace rlsim
