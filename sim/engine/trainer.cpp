// Training execs, gradient ring all-reduce comms and optimizer steps.
#include "sim/engine/trainer.h"

#include <algorithm>
#include <cmath>
#include <simgrid/s4u.hpp>

#include "models/arch_params.h"
#include "models/timing/training_time.h"
#include "sim/engine/faults/fault_state.h"

namespace rlsim {
namespace sg4 = simgrid::s4u;
namespace {

/// Thrown inside the trainer when a fault stops it; `train` catches it and starts over.
struct TrainingStopped {
  size_t event;
};

}  // namespace

Trainer::Trainer(RlContext& context, const CostModel& cost, GpuGroup gpus, int dp)
    : context_(context), cost_(cost), gpus_(std::move(gpus)), dp_(dp) {}

double Trainer::weight_bytes() const {
  return rlsim::weight_bytes(context_.scenario.model, context_.scenario.weight_sync.precision);
}

void Trainer::run_on_all(double seconds, GpuState state, int step) {
  if (seconds <= 0.0) return;
  const double start = sg4::Engine::get_clock();
  wait_all({gpus_.start_lockstep(seconds)}, state, start, step);
  context_.record(gpus_, state, start, sg4::Engine::get_clock(), step);
}

void Trainer::wait_all(std::vector<sg4::ActivityPtr> activities, GpuState state, double start, int step) {
  const FaultState* faults = context_.faults;
  const std::optional<size_t> stop = faults ? faults->next_stop(start, gpus_.hosts) : std::nullopt;
  while (!activities.empty()) {
    if (!stop) {
      for (auto& activity : activities) activity->wait();
      return;
    }
    const double left = faults->spec().events[*stop].at_s - sg4::Engine::get_clock();
    const ssize_t done = left > 0.0 ? sg4::Activity::wait_any_for(activities, left) : -1;
    if (done < 0) {
      for (auto& activity : activities) activity->cancel();
      context_.record(gpus_, state, start, sg4::Engine::get_clock(), step);
      throw TrainingStopped{*stop};
    }
    activities.erase(activities.begin() + done);
  }
}

void Trainer::all_reduce_gradients(double ring_bytes, int step) {
  const TrainingSpec& t = context_.scenario.training;
  if (dp_ <= 1 || ring_bytes <= 0.0) return;
  // Ring collectives: each GPU sends its share to the same model-parallel position in the next
  // replica; the dp rings run at once and share the links.
  const size_t replica = static_cast<size_t>(t.tp) * static_cast<size_t>(t.pp);
  const double bytes = ring_bytes;
  const double start = sg4::Engine::get_clock();
  std::vector<sg4::CommPtr> comms;
  for (size_t i = 0; i < gpus_.hosts.size(); ++i) {
    const size_t peer = (i + replica) % gpus_.hosts.size();
    comms.push_back(sg4::Comm::sendto_async(gpus_.hosts[i], gpus_.hosts[peer], bytes));
  }
  wait_all({comms.begin(), comms.end()}, GpuState::busy(Phase::train), start, step);
  context_.record(gpus_, GpuState::busy(Phase::train), start, sg4::Engine::get_clock(), step);
}

void Trainer::train(const std::vector<double>& sequences, int optimizer_steps, int step) {
  const FaultState* faults = context_.faults;
  int redo = 0;  // earlier steps trained since the checkpoint we went back to
  while (true) {
    const double now = sg4::Engine::get_clock();
    const double ready = faults ? faults->running_again(now, gpus_.hosts) : now;
    bool restarting = false;
    if (ready > now) {
      // The job died (busy or not): after the repair it restarts, and going back to the last
      // checkpoint (taken after every checkpoint_interval-th step) loses the steps since then.
      sg4::this_actor::sleep_until(ready);
      context_.record(gpus_, GpuState::wait(WaitCause::fault), now, ready, step);
      restarting = true;
      const FaultsSpec& spec = faults->spec();
      redo = spec.recovery == FaultRecovery::checkpoint ? step % spec.checkpoint_interval : 0;
    }
    try {
      // Restarting (the framework and its checkpoint back on the GPUs) is the fault's time too.
      if (restarting) run_on_all(faults->spec().restart_s, GpuState::wait(WaitCause::fault), step);
      for (; redo > 0; --redo) train_once(sequences, optimizer_steps, step);
      train_once(sequences, optimizer_steps, step);
      return;
    } catch (const TrainingStopped&) {
      // Stopped mid-training: the loop waits for the repair and starts over.
    }
  }
}

void Trainer::train_once(const std::vector<double>& sequences, int optimizer_steps, int step) {
  const Scenario& s = context_.scenario;
  const TrainingSpec& t = s.training;
  const HardwareSpec& card = s.cluster.pool(t.pool)->card;
  TrainingOptions options;
  options.compute = t.weights;
  options.sequence_length = static_cast<int64_t>(std::max(1.0, std::round(t.sequence_tokens)));
  options.recompute = t.recompute;
  options.sharding = t.sharding;
  options.mini_batches = optimizer_steps;
  options.sequence_tokens = sequences;
  options.balance = t.balance;
  options.attention_kernel = t.attention_kernel;
  options.gradients = t.gradients;
  // TP all-reduces run over the node's scale-up link (one direction for the ring), or as the
  // scenario's calibrated profile measured them on this card.
  const PoolSpec& pool = *s.cluster.pool(t.pool);
  options.tp_link = LinkSpec{pool.intra_node.bandwidth_bytes_per_s / 2.0, pool.intra_node.latency_s};
  if (const HardwareProfile* profile = context_.profile; profile && profile->card == card.name)
    options.tp_allreduce_fit = profile->find_collective(Collective::all_reduce, t.tp, t.tp);
  double tokens = 0.0;
  for (double sequence : sequences) tokens += sequence;
  const auto whole = static_cast<int64_t>(std::max<double>(dp_, std::round(tokens)));
  const TrainingStepTime cost = training_step_time(s.model, card, cost_, whole, dp_, t.tp, t.pp, options);
  context_.trained_tokens_by_step[step] += static_cast<double>(whole);
  context_.rank_imbalance_by_step[step] = cost.rank_imbalance;
  // 1F1B: the pipeline's fill and drain stretch every pass by (pp − 1)/m.
  const double pipelined = 1.0 + cost.pipeline_bubble_fraction;
  // A calibrated RL run's terms on this card: its passes at the pace that run measured.
  const RlRunTerms* run = context_.rl_run_on(card.name);
  const double forward_efficiency = run ? run->forward_efficiency : 1.0;
  const double update_efficiency = run ? run->update_efficiency : 1.0;

  // Extra forward passes over the whole batch before the update.
  const auto extra_forwards = static_cast<double>(t.extra_forwards().size());
  run_on_all(extra_forwards * cost.forward_pass_s() * pipelined / forward_efficiency,
             GpuState::busy(Phase::ref_logprob), step);

  const int models = t.algorithm == RlAlgorithm::ppo ? 2 : 1;  // PPO trains the critic too
  for (int model = 0; model < models; ++model) {
    for (int mini = 0; mini < optimizer_steps; ++mini) {
      run_on_all(cost.training_pass_s() * pipelined / optimizer_steps / update_efficiency,
                 GpuState::busy(Phase::train), step);
      all_reduce_gradients(cost.dp_ring_bytes(dp_), step);
      run_on_all(cost.optimizer_s / update_efficiency, GpuState::busy(Phase::train), step);
    }
  }
}

}  // namespace rlsim
