// `disaggregated`: the synchronous loop on separate pools — every trajectory of the step is rolled
// out, the trainer trains on all of them, then the new weights go to every instance before the
// next step starts. Step = rollout + train + weight sync. The trainer waits for rollout
// (train_waits_rollout); instances wait on the long tail, on agents, and for new weights.
#include <simgrid/s4u.hpp>

#include "sim/engine/policies/policy.h"
#include "sim/engine/policies/rl_step.h"
#include "sim/engine/trainer.h"
#include "sim/engine/weight_sync.h"

namespace rlsim {
namespace sg4 = simgrid::s4u;
namespace {

class DisaggregatedPolicy : public Policy {
 public:
  void check(const Scenario& s) const override {
    if (s.rollout.pool == s.training.pool) {
      throw InputError(s.policy.where,
                       "policy 'disaggregated' needs rollout.pool and training.pool to differ (both are '" +
                           s.rollout.pool + "'); use policy 'colocated' to time-share one pool");
    }
  }

  void run(RlContext& ctx) override {
    RolloutService service(ctx, ctx.cost, ctx.rollout_instances, ctx.monitor);
    Trainer trainer(ctx, ctx.cost, ctx.trainer, ctx.scenario.training.dp);
    service.start();
    for (int step = 0; step < ctx.scenario.workload.steps; ++step) {
      StepRecord record;
      record.step = step;
      record.start_s = sg4::Engine::get_clock();
      service.set_step(step);
      const int count = launch_step(ctx, service, step);
      const TrainingBatch batch = collect(service, count);
      const double rollout_end = sg4::Engine::get_clock();
      ctx.record(ctx.trainer, GpuState::wait(WaitCause::train_waits_rollout), record.start_s, rollout_end,
                 step);

      trainer.train(batch.sequence_tokens(), ctx.scenario.training.mini_batches, step);
      const double train_end = sg4::Engine::get_clock();
      sync_weights(trainer.gpus().leader(), service.instance_leaders(), trainer.weight_bytes(),
                   ctx.scenario.weight_sync.method);
      const double sync_end = sg4::Engine::get_clock();
      ctx.record(ctx.trainer, GpuState::busy(Phase::weight_sync), train_end, sync_end, step);
      service.update_weights(step + 1, engine_load_pause_s(ctx.scenario));

      record.end_s = sync_end;
      record.rollout_s = rollout_end - record.start_s;
      record.train_s = train_end - rollout_end;
      record.weight_sync_s = sync_end - train_end;
      record_step(ctx, record, batch);
    }
    stop_rollout(ctx, service);
  }
};

}  // namespace
RLSIM_REGISTER_POLICY(DisaggregatedPolicy, "disaggregated",
                      "synchronous loop on separate pools: rollout, then train, then weight sync");
}  // namespace rlsim
