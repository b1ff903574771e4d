// `disaggregated`: the synchronous loop on separate pools — every rollout instance generates its
// share of the step's trajectories, the trainer trains on all of them, then the new weights are
// broadcast to every instance before the next step. Waits: the trainer waits for rollout
// (train_waits_rollout); instances that finish early wait for the slowest (long_tail); all
// instances wait during training and sync (rollout_waits_weights).
#include <simgrid/s4u.hpp>

#include <algorithm>

#include "sim/engine/policy.h"
#include "sim/engine/rollout_work.h"
#include "sim/engine/simple_costs.h"
#include "sim/engine/weight_sync.h"
#include "sim/engine/workload.h"

namespace rlsim {
namespace sg4 = simgrid::s4u;
namespace {

class DisaggregatedPolicy : public Policy {
 public:
  void check(const Scenario& s) const override {
    if (s.rollout.pool == s.training.pool) {
      throw InputError({s.file, 1, 1}, "policy 'disaggregated' needs rollout.pool and training.pool to differ (both are '" +
                                           s.rollout.pool + "')");
    }
  }

  void run(RlContext& ctx) override {
    const Scenario& s = ctx.scenario;
    const HardwareSpec& rollout_card = s.cluster.pool(s.rollout.pool)->card;
    const HardwareSpec& train_card = s.cluster.pool(s.training.pool)->card;
    const double weight_bytes = SimpleCosts::parameters(s.model) * bytes_per_element(s.weight_sync.precision);
    std::vector<sg4::Host*> instance_leaders;
    for (const auto& instance : ctx.rollout_instances) instance_leaders.push_back(instance.leader());

    int next_trajectory = 0;
    for (int step = 0; step < s.workload.steps; ++step) {
      StepRecord record;
      record.step = step;
      record.start_s = sg4::Engine::get_clock();
      auto trajectories = sample_step(s.workload, ctx.rng, next_trajectory);
      next_trajectory += static_cast<int>(trajectories.size());

      // Rollout: one actor per instance, each an exec on its leader for its planned time.
      std::vector<std::vector<const Trajectory*>> shares(ctx.rollout_instances.size());
      for (size_t i = 0; i < trajectories.size(); ++i) shares[i % shares.size()].push_back(&trajectories[i]);
      std::vector<double> finished(shares.size(), record.start_s);
      std::vector<sg4::ActorPtr> instances;
      for (size_t i = 0; i < shares.size(); ++i) {
        RolloutPlan plan = plan_rollout(s, rollout_card, shares[i]);
        record.generated_tokens += plan.generated_tokens;
        for (const auto& call : plan.calls) ctx.timeline.record_call(call);
        instances.push_back(sg4::Actor::create("rollout-" + std::to_string(i), ctx.rollout_instances[i].leader(),
                                               [seconds = plan.seconds, &done = finished[i]]() {
                                                 sg4::this_actor::execute(seconds);
                                                 done = sg4::Engine::get_clock();
                                               }));
      }
      for (auto& actor : instances) actor->join();
      const double rollout_end = sg4::Engine::get_clock();
      for (size_t i = 0; i < shares.size(); ++i) {
        ctx.record(ctx.rollout_instances[i], "busy:rollout", record.start_s, finished[i], step);
        ctx.record(ctx.rollout_instances[i], "wait:long_tail", finished[i], rollout_end, step);
      }
      ctx.record(ctx.trainer, "wait:train_waits_rollout", record.start_s, rollout_end, step);

      // Training on every trainer GPU (data parallel share each).
      const int extra_forwards = s.training.algorithm == "ppo" ? 3 : 2;  // old log-probs + reference (+ critic)
      const double train_seconds = SimpleCosts::train_s(s.model, train_card, static_cast<int>(ctx.trainer.hosts.size()),
                                                        record.generated_tokens, extra_forwards);
      std::vector<sg4::ExecPtr> execs;
      for (auto* host : ctx.trainer.hosts) {
        sg4::ExecPtr exec = sg4::this_actor::exec_init(train_seconds);
        exec->set_host(host)->start();
        execs.push_back(exec);
      }
      for (auto& exec : execs) exec->wait();
      const double train_end = sg4::Engine::get_clock();
      ctx.record(ctx.trainer, "busy:train", rollout_end, train_end, step);

      // Weight sync from the trainer's first GPU to every instance leader.
      sync_weights(ctx.trainer.leader(), instance_leaders, weight_bytes, s.weight_sync.method);
      const double sync_end = sg4::Engine::get_clock();
      ctx.record(ctx.trainer, "busy:weight_sync", train_end, sync_end, step);
      for (const auto& instance : ctx.rollout_instances) {
        ctx.record(instance, "wait:rollout_waits_weights", rollout_end, sync_end, step);
      }

      record.end_s = sync_end;
      record.rollout_s = rollout_end - record.start_s;
      record.train_s = train_end - rollout_end;
      record.weight_sync_s = sync_end - train_end;
      record.samples = static_cast<int>(trajectories.size());
      ctx.timeline.record_step(record);
    }
  }
};

}  // namespace
RLSIM_REGISTER_POLICY(DisaggregatedPolicy, "disaggregated",
                      "synchronous loop on separate pools: rollout, then train, then weight sync");
}  // namespace rlsim
