// `streaming`: rollout never stops. Agents are relaunched as trajectories are taken for training,
// keeping `in_flight_steps` steps' worth launched and not yet trained (1 by default, as verl's fully
// asynchronous rollouter; NeMo RL's trajectory collector generates for every step up to
// max_trajectory_age_steps ahead, so its runs set it to that age); the trainer takes finished
// trajectories in mini-batches as they arrive and trains each (one optimizer step), syncs the
// weights `syncs_per_step` times a step (once by default: verl's trigger_parameter_sync_step local
// updates between syncs, NeMo RL's and AReaL's one update per step), and every instance swaps the
// new weights in at its next iteration boundary — in-flight trajectories continue with the new
// weights, so staleness is tracked per token. At most max_staleness + 1 steps' worth of
// trajectories are launched ahead of the trainer.
#include <simgrid/s4u.hpp>

#include "sim/engine/policies/policy.h"
#include "sim/engine/policies/rl_step.h"
#include "sim/engine/policies/weight_lag.h"
#include "sim/engine/trainer.h"
#include "sim/engine/weight_sync.h"
#include "sim/engine/workload.h"

namespace rlsim {
namespace sg4 = simgrid::s4u;
namespace {

class StreamingPolicy : public Policy {
 public:
  explicit StreamingPolicy(const ParamValues& params)
      : lag_(params),
        in_flight_steps_(static_cast<int>(params.integer("in_flight_steps"))),
        syncs_per_step_(static_cast<int>(params.integer("syncs_per_step"))) {}

  void check(const Scenario& s) const override {
    if (s.rollout.pool == s.training.pool) {
      throw InputError(
          s.policy.where,
          "policy 'streaming' needs separate rollout and training pools (both are '" + s.rollout.pool + "')");
    }
    if (in_flight_steps_ > lag_.max_staleness + 1) {
      throw InputError(s.policy.where,
                       "policy 'streaming' launches at most max_staleness + 1 (" +
                           std::to_string(lag_.max_staleness + 1) +
                           ") steps' worth ahead of the trainer: expected in_flight_steps of at "
                           "most that, found " +
                           std::to_string(in_flight_steps_));
    }
    if (s.training.mini_batches % syncs_per_step_ != 0) {
      throw InputError(s.policy.where,
                       "policy 'streaming' syncs after a whole number of mini-batches: expected "
                       "syncs_per_step to divide training.mini_batches (" +
                           std::to_string(s.training.mini_batches) + "), found " +
                           std::to_string(syncs_per_step_));
    }
    if (s.workload.trajectories_per_step() % s.training.mini_batches != 0) {
      throw InputError(s.policy.where, "policy 'streaming' needs training.mini_batches (" +
                                           std::to_string(s.training.mini_batches) +
                                           ") to divide the trajectories per step (" +
                                           std::to_string(s.workload.trajectories_per_step()) + ")");
    }
  }

  void run(RlContext& ctx) override {
    const Scenario& s = ctx.scenario;
    RolloutService service(ctx, ctx.cost, ctx.rollout_instances, ctx.monitor);
    Trainer trainer(ctx, ctx.cost, ctx.trainer, ctx.scenario.training.dp);
    service.start();
    const int per_step = s.workload.trajectories_per_step();
    const int per_mini_batch = per_step / s.training.mini_batches;
    const int total = per_step * s.workload.steps;

    // Sample trajectories a step at a time (same draws as the synchronous policies), launch lazily.
    std::vector<Trajectory> pending;
    size_t next_pending = 0;
    int launched = 0, consumed = 0, launch_step_index = 0;
    auto launch_one = [&]() {
      if (next_pending == pending.size()) {
        pending = sample_step(s.workload, ctx.rng, ctx.next_trajectory);
        ctx.next_trajectory += static_cast<int>(pending.size());
        next_pending = 0;
        ++launch_step_index;
      }
      service.launch(pending[next_pending++], launch_step_index - 1);
      ++launched;
    };
    const int ahead = per_step * (lag_.max_staleness + 1);
    const int in_flight = per_step * in_flight_steps_;
    while (launched < std::min(total, in_flight)) launch_one();

    double previous_end = 0.0;
    int version = 0;
    for (int step = 0; step < s.workload.steps; ++step) {
      StepRecord record;
      record.step = step;
      record.start_s = previous_end;
      service.set_step(step);
      for (int mini = 0; mini < s.training.mini_batches; ++mini) {
        const double wait_start = sg4::Engine::get_clock();
        TrainingBatch batch;
        while (batch.samples < per_mini_batch) {
          batch.add(service.wait_finished());
          ++consumed;
          while (launched < total && launched - consumed < ahead && launched - consumed < in_flight)
            launch_one();
        }
        const double train_start = sg4::Engine::get_clock();
        ctx.record(ctx.trainer, GpuState::wait(WaitCause::train_waits_rollout), wait_start, train_start,
                   step);
        record.rollout_s += train_start - wait_start;
        // Versions behind the weights it trains against: the last published (before this sync).
        record.staleness += batch.staleness(version) / s.training.mini_batches;
        trainer.train(batch.sequence_tokens(), 1, step);  // one mini-batch: one optimizer step
        const double train_end = sg4::Engine::get_clock();
        double sync_end = train_end;
        if ((mini + 1) % (s.training.mini_batches / syncs_per_step_) == 0) {
          sync_weights(trainer.gpus().leader(), service.instance_leaders(), trainer.weight_bytes(),
                       s.weight_sync.method);
          sync_end = sg4::Engine::get_clock();
          ctx.record(ctx.trainer, GpuState::busy(Phase::weight_sync), train_end, sync_end, step);
          service.update_weights(++version, lag_.weight_swap_s + engine_load_pause_s(s));
        }
        record.train_s += train_end - train_start;
        record.weight_sync_s += sync_end - train_end;
        record.samples += batch.samples;
        record.truncated += batch.truncated;
        record.generated_tokens += batch.generated_tokens;
      }
      record.end_s = sg4::Engine::get_clock();
      previous_end = record.end_s;
      ctx.timeline.record_step(record);
    }
    stop_rollout(ctx, service);
  }

 private:
  WeightLag lag_;
  int in_flight_steps_;
  int syncs_per_step_;
};

}  // namespace
RLSIM_REGISTER_POLICY(
    StreamingPolicy, "streaming",
    "trainer consumes finished trajectories in mini-batches; instances swap weights mid-flight",
    max_staleness_param(), weight_swap_param(),
    ParamSpec::integer(
        "in_flight_steps", 1, 1, 1000,
        "steps' worth of trajectories launched and not yet trained (at most max_staleness + 1): "
        "1 as verl's fully asynchronous rollouter, max_trajectory_age_steps for NeMo RL's "
        "collector"),
    ParamSpec::integer(
        "syncs_per_step", 1, 1, 1000,
        "weight syncs per step, after equal shares of its mini-batches (dividing "
        "training.mini_batches): 1 as NeMo RL, AReaL and verl with trigger_parameter_sync_step "
        "equal to the step's mini-batches"));
}  // namespace rlsim
