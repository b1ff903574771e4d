// `colocated`: every GPU time-shares every phase. With one pool (rollout.pool == training.pool)
// that pool is shared; with two pools of the same card, the GPUs of both are pooled, so the same
// cluster can be compared with `disaggregated`. Each step: all GPUs roll out (inference instances
// of rollout.tp × rollout.pp GPUs), switch to training (onload optimizer state from host memory), train (data
// parallel over all GPUs), switch back (offload optimizer state, reload inference weights).
// Weights never cross the network. Step = rollout + switch + train + switch.
#include <simgrid/s4u.hpp>

#include "sim/engine/policies/phase_switch.h"
#include "sim/engine/policies/policy.h"
#include "sim/engine/policies/rl_step.h"
#include "sim/engine/trainer.h"
#include "sim/engine/weight_sync.h"

namespace rlsim {
namespace sg4 = simgrid::s4u;
namespace {

class ColocatedPolicy : public Policy {
 public:
  // One program spans every GPU: a failure anywhere stops rollout and training alike.
  bool single_job() const override { return true; }

  void check(const Scenario& s) const override {
    if (s.rollout.afd) {
      throw InputError(s.rollout.afd->where,
                       "expected policy disaggregated, overlap or streaming with an AFD "
                       "rollout pool (rollout.afd), found 'colocated', which moves GPUs between phases");
    }
    const PoolSpec& rollout = *s.cluster.pool(s.rollout.pool);
    const PoolSpec& training = *s.cluster.pool(s.training.pool);
    if (rollout.card.name != training.card.name) {
      throw InputError(training.where,
                       "policy 'colocated' shares every GPU between phases, so the rollout pool ('" +
                           rollout.card.name + "') and the training pool ('" + training.card.name +
                           "') need the same card");
    }
    const int per_instance = s.rollout.gpus_per_instance();
    if (s.rollout.pool != s.training.pool && training.gpus() % per_instance != 0) {
      throw InputError(s.rollout.pp > 1 ? s.rollout.pp_where : training.where,
                       "policy 'colocated' serves rollout on the training pool's GPUs too, so its " +
                           std::to_string(training.gpus()) + " GPUs must split into instances of tp × pp = " +
                           std::to_string(per_instance) + " GPUs");
    }
  }

  void run(RlContext& ctx) override {
    const Scenario& s = ctx.scenario;
    // All GPUs of both pools (once) serve rollout and train.
    std::vector<GpuGroup> instances = ctx.rollout_instances;
    GpuGroup all = ctx.trainer;
    int dp = s.training.dp;
    if (s.rollout.pool != s.training.pool) {
      for (const GpuGroup& instance : ctx.rollout_instances) {
        all.hosts.insert(all.hosts.end(), instance.hosts.begin(), instance.hosts.end());
        all.tracks.insert(all.tracks.end(), instance.tracks.begin(), instance.tracks.end());
      }
      const auto size = static_cast<size_t>(s.rollout.gpus_per_instance());
      for (size_t first = 0; first + size <= ctx.trainer.hosts.size(); first += size) {
        GpuGroup group;
        group.hosts.assign(ctx.trainer.hosts.begin() + static_cast<long>(first),
                           ctx.trainer.hosts.begin() + static_cast<long>(first + size));
        group.tracks.assign(ctx.trainer.tracks.begin() + static_cast<long>(first),
                            ctx.trainer.tracks.begin() + static_cast<long>(first + size));
        instances.push_back(group);
      }
      dp = static_cast<int>(all.hosts.size()) / (s.training.tp * s.training.pp);
    }
    ctx.trainer = all;
    RolloutService service(ctx, ctx.cost, instances, ctx.monitor);
    Trainer trainer(ctx, ctx.cost, all, dp);
    service.start();
    const PhaseSwitchCosts switches = phase_switch_costs(s);

    for (int step = 0; step < s.workload.steps; ++step) {
      StepRecord record;
      record.step = step;
      record.start_s = sg4::Engine::get_clock();
      service.set_step(step);
      const TrainingBatch batch = collect(service, launch_step(ctx, service, step));
      const double rollout_end = sg4::Engine::get_clock();

      run_switch(ctx, ctx.trainer, switches.to_train_s, step);
      const double train_start = sg4::Engine::get_clock();
      trainer.train(batch.sequence_tokens(), s.training.mini_batches, step);
      const double train_end = sg4::Engine::get_clock();
      run_switch(ctx, ctx.trainer, switches.to_rollout_s, step);
      service.update_weights(step + 1, engine_load_pause_s(s));

      record.end_s = sg4::Engine::get_clock();
      record.rollout_s = rollout_end - record.start_s;
      record.switch_s = (train_start - rollout_end) + (record.end_s - train_end);
      record.train_s = train_end - train_start;
      record_step(ctx, record, batch);
    }
    stop_rollout(ctx, service);
  }
};

}  // namespace
RLSIM_REGISTER_POLICY(ColocatedPolicy, "colocated",
                      "one pool time-shares rollout and training, paying offload/onload switches each step");
}  // namespace rlsim
