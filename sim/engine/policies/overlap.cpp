// `overlap`: pipeline overlap with bounded staleness on separate pools. A rollout loop generates
// step k as soon as the weights of step k - max_staleness are published, while the trainer trains
// step k-1 and syncs its weights. Steady-state step = max(rollout, train + weight sync).
#include <mutex>
#include <simgrid/s4u.hpp>

#include "sim/engine/policies/policy.h"
#include "sim/engine/policies/rl_step.h"
#include "sim/engine/policies/weight_lag.h"
#include "sim/engine/trainer.h"
#include "sim/engine/weight_sync.h"

namespace rlsim {
namespace sg4 = simgrid::s4u;
namespace {

class OverlapPolicy : public Policy {
 public:
  explicit OverlapPolicy(const ParamValues& params) : lag_(params) {}

  void check(const Scenario& s) const override {
    if (s.rollout.pool == s.training.pool) {
      throw InputError(
          s.policy.where,
          "policy 'overlap' needs separate rollout and training pools (both are '" + s.rollout.pool + "')");
    }
  }

  void run(RlContext& ctx) override {
    const Scenario& s = ctx.scenario;
    RolloutService service(ctx, ctx.cost, ctx.rollout_instances, ctx.monitor);
    Trainer trainer(ctx, ctx.cost, ctx.trainer, ctx.scenario.training.dp);
    service.start();
    auto mutex = sg4::Mutex::create();
    auto published = sg4::ConditionVariable::create();
    int version = 0;  // weights after training step k are version k + 1
    sg4::Mailbox* batches = sg4::Mailbox::by_name("rollout-batches");
    std::vector<double> launched(static_cast<size_t>(s.workload.steps), 0.0);
    int collecting = -1;  // the step being collected
    // The next step is allowed (staleness) but waits for this one to drain: idle GPUs wait on that.
    auto note_held = [&]() {
      const int next = collecting + 1;
      ctx.monitor.launch_held(sg4::Engine::get_clock(), collecting >= 0 && next < s.workload.steps &&
                                                            version >= next - lag_.max_staleness);
    };

    sg4::ActorPtr rollout = sg4::Actor::create("rollout-loop", sg4::this_actor::get_host(), [&]() {
      for (int step = 0; step < s.workload.steps; ++step) {
        {
          std::unique_lock lock(*mutex);
          while (version < step - lag_.max_staleness) published->wait(lock);
        }
        service.set_step(step);
        launched[static_cast<size_t>(step)] = sg4::Engine::get_clock();
        const int count = launch_step(ctx, service, step);
        collecting = step;
        note_held();
        auto* batch = new TrainingBatch(collect(service, count));
        collecting = -1;
        note_held();
        batches->put_init(batch, 0)->detach();
      }
    });

    double previous_end = 0.0;
    for (int step = 0; step < s.workload.steps; ++step) {
      const double wait_start = sg4::Engine::get_clock();
      auto* batch = batches->get<TrainingBatch>();
      const double train_start = sg4::Engine::get_clock();
      ctx.record(ctx.trainer, GpuState::wait(WaitCause::train_waits_rollout), wait_start, train_start, step);
      trainer.train(batch->sequence_tokens(), ctx.scenario.training.mini_batches, step);
      const double train_end = sg4::Engine::get_clock();
      sync_weights(trainer.gpus().leader(), service.instance_leaders(), trainer.weight_bytes(),
                   s.weight_sync.method);
      const double sync_end = sg4::Engine::get_clock();
      ctx.record(ctx.trainer, GpuState::busy(Phase::weight_sync), train_end, sync_end, step);
      service.update_weights(step + 1, lag_.weight_swap_s + engine_load_pause_s(s));
      {
        std::unique_lock lock(*mutex);
        version = step + 1;
      }
      note_held();
      published->notify_all();

      StepRecord record;
      record.step = step;
      record.start_s = previous_end;
      record.end_s = sync_end;
      record.rollout_s = batch->last_finish_s - launched[static_cast<size_t>(step)];
      record.train_s = train_end - train_start;
      record.weight_sync_s = sync_end - train_end;
      record_step(ctx, record, *batch);
      previous_end = sync_end;
      delete batch;
    }
    rollout->join();
    stop_rollout(ctx, service);
  }

 private:
  WeightLag lag_;
};

}  // namespace
RLSIM_REGISTER_POLICY(OverlapPolicy, "overlap",
                      "rollout of step k+1 while training step k, weights at most max_staleness steps old",
                      max_staleness_param(), weight_swap_param());
}  // namespace rlsim
