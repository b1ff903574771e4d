// Lower bounds on a step's time at the datasheet peak (plan_bound.h).
#include "tools/plan/plan_bound.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "models/arch_params.h"
#include "models/cost/cost_model_registry.h"
#include "models/cost/roofline_cost_model.h"
#include "models/precision.h"
#include "models/timing/model_flops.h"
#include "sim/engine/instance_config.h"
#include "sim/engine/instance_time.h"
#include "sim/engine/workload.h"
#include "sim/scenario/profile_loader.h"

namespace rlsim {
namespace {

double best_peak(const HardwareSpec& card) {
  double peak = 0.0;
  for (const auto& [precision, flops] : card.peak_flops) peak = std::max(peak, flops);
  return peak;
}

/// Decoding `tokens` tokens that attend to `kv_reads` context tokens in all on `gpus` GPUs of
/// `card` at TP `tp`, at most `in_flight` sequences at once: the work at the datasheet peak, and
/// the instances' iterations at the fastest pace they can keep. An iteration's tokens per second
/// grow with its batch, ever more slowly (its time is affine in the batch), so the instances
/// together go fastest with the sequences spread evenly, each at min(max_batch, in_flight /
/// instances); and an iteration costs at least its mean context's cost (convex in the context).
double decode_throughput_bound(const Scenario& s, double prefill_tokens, double tokens, double kv_reads,
                               const HardwareSpec& card, int gpus, int tp, double in_flight,
                               DecodeFloors& floors) {
  if (tokens <= 0.0) return 0.0;
  const double weight_bytes = active_params(s.model) * bytes_per_element(s.rollout.weights);
  const double kv_bytes = kv_bytes_per_token(s.model, s.rollout.kv_cache);
  const double flops = 2.0 * active_params(s.model) * (prefill_tokens + tokens);
  const double bytes = kv_bytes * kv_reads + weight_bytes * tokens / std::max(1, s.rollout.max_batch);
  const double peak = std::max(flops / (gpus * best_peak(card)), bytes / (gpus * card.mem_bw_bytes_per_s));
  // A pipeline-parallel instance keeps its stages busy on micro-batches at once, which an iteration
  // of the whole model on one TP group does not price: there the datasheet bound alone.
  if (s.rollout.pp > 1) return peak;
  const double instances = std::max(1, gpus / tp);
  const double batch = std::max(1.0, std::min<double>(s.rollout.max_batch, in_flight / instances));
  const double iterations = tokens / batch / instances;
  return std::max(peak, iterations * floors.iteration_s(card, tp, batch, kv_reads / tokens));
}

/// The rollout of one step on `gpus` GPUs of `card` at TP `tp`.
double rollout_bound(const Scenario& s, const StepWork& w, const HardwareSpec& card, int gpus, int tp,
                     DecodeFloors& floors) {
  double bound = decode_throughput_bound(s, w.prefill_tokens, w.output_tokens, w.kv_token_reads, card, gpus,
                                         tp, static_cast<double>(w.trajectories.size()), floors);
  // The trajectory that decodes the most tokens (an iteration grows with the context, so the
  // longest is also the slowest alone), each of its tokens an iteration of at least itself.
  const TrajectoryWork* longest = nullptr;
  for (const TrajectoryWork& t : w.trajectories) {
    if (!longest || t.decode_tokens > longest->decode_tokens ||
        (t.decode_tokens == longest->decode_tokens && t.kv_token_reads > longest->kv_token_reads))
      longest = &t;
  }
  if (longest && longest->decode_tokens > 0.0) {
    const double context = longest->kv_token_reads / longest->decode_tokens;
    bound = std::max(bound, longest->decode_tokens * floors.iteration_s(card, tp, 1.0, context));
  }
  return bound;
}

/// The highest fraction of its peak any GEMM reaches under the scenario's cost model: the roofline
/// model's large-GEMM efficiency, or the whole peak for another model.
double best_gemm_efficiency(const CostModel& cost) {
  if (const auto* roofline = dynamic_cast<const RooflineCostModel*>(&cost))
    return std::min(1.0,
                    std::max(roofline->efficiency().gemm_compute, roofline->efficiency().attention_compute));
  return 1.0;
}

double training_bound(const Scenario& s, double train_tokens, const HardwareSpec& card, int gpus,
                      DecodeFloors& floors) {
  const double passes = 3.0 + static_cast<double>(s.training.extra_forwards().size());
  const double peak = card.peak(s.training.weights).value_or(best_peak(card)) * floors.gemm_efficiency();
  return forward_model_flops_per_token(s.model, 0.0) * train_tokens * passes / (gpus * peak);
}

/// The weights' move from the trainer to `instances` rollout instances after each optimizer step
/// (sim/engine/weight_sync.cpp): the trainer's GPU sends them over its NIC and the link between the
/// pools (the fastest the cluster could give) once in every round of the binomial tree,
/// ceil(log2(instances + 1)) rounds one after another, or once down the ring.
double weight_sync_bound(const Scenario& s, const HardwareSpec& train_card, const PoolShape& pools,
                         int instances) {
  double nic = train_card.nic_bw_bytes_per_s, between = 0.0;
  for (const PoolSpec& pool : s.cluster.pools) nic = std::max(nic, pool.nic.bandwidth_bytes_per_s);
  for (const ClusterLinkSpec& link : s.cluster.links) {
    const bool joins = (link.a == pools.rollout_pool && link.b == pools.train_pool) ||
                       (link.a == pools.train_pool && link.b == pools.rollout_pool);
    if (joins) between = std::max(between, link.params.bandwidth_bytes_per_s);
  }
  const double bandwidth = between > 0.0 ? std::min(nic, between) : nic;
  const double sends = s.weight_sync.method == WeightSyncMethod::ring
                           ? 1.0
                           : std::ceil(std::log2(static_cast<double>(instances) + 1.0));
  return bandwidth > 0.0 ? sends * weight_bytes(s.model, s.weight_sync.precision) / bandwidth : 0.0;
}

/// The sum of the `count` smallest of `values` (all of them when there are fewer).
double smallest_sum(std::vector<double> values, size_t count) {
  count = std::min(count, values.size());
  std::partial_sort(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(count), values.end());
  double sum = 0.0;
  for (size_t i = 0; i < count; ++i) sum += values[i];
  return sum;
}

/// streaming over the steady window of n steps of P trajectories at staleness s. Trajectories are
/// launched in the order drawn, at most s + 1 steps' worth ahead of the trainer: when the window
/// opens (P trained) at most (s + 2)·P have been launched, and when it closes ((n + 1)·P trained) at
/// most (n + s + 2)·P. So at least (n − s − 1)·P of those drawn in between are generated inside the
/// window, and n·P of the first (n + s + 2)·P are trained in it. Each bound takes the lightest of
/// the trajectories it may be; the trainer also syncs `sync_s` of weights a step.
double streaming_bound(const Scenario& s, const std::vector<StepWork>& work, const Arrangement& a,
                       const HardwareSpec& rollout_card, int rollout_gpus, const HardwareSpec& train_card,
                       int train_gpus, int n, double sync_s, DecodeFloors& floors) {
  std::vector<const TrajectoryWork*> drawn;
  for (const StepWork& w : work) {
    for (const TrajectoryWork& t : w.trajectories) drawn.push_back(&t);
  }
  const size_t per_step = work.front().trajectories.size(), stale = static_cast<size_t>(a.max_staleness);
  const size_t steady = static_cast<size_t>(n);
  const auto of_range = [&](size_t from, size_t to, auto field) {
    std::vector<double> values;
    for (size_t i = from; i < std::min(to, drawn.size()); ++i) values.push_back(field(*drawn[i]));
    return values;
  };
  const size_t first_steps = (steady + stale + 2) * per_step;
  const double trained = smallest_sum(
      of_range(0, first_steps, [](const TrajectoryWork& t) { return t.train_tokens; }), steady * per_step);
  double bound = training_bound(s, trained, train_card, train_gpus, floors) / n + sync_s;
  if (steady > stale + 1) {
    const size_t count = (steady - stale - 1) * per_step, from = (stale + 2) * per_step;
    const double tokens = smallest_sum(
        of_range(from, first_steps, [](const TrajectoryWork& t) { return t.decode_tokens; }), count);
    const double reads = smallest_sum(
        of_range(from, first_steps, [](const TrajectoryWork& t) { return t.kv_token_reads; }), count);
    const double in_flight = static_cast<double>((stale + 2) * per_step);
    bound = std::max(bound, decode_throughput_bound(s, 0.0, tokens, reads, rollout_card, rollout_gpus,
                                                    a.rollout_tp, in_flight, floors) /
                                n);
  }
  return bound;
}

}  // namespace

struct DecodeFloors::Instance {
  InstanceConfig config;
  std::unique_ptr<InstanceTime> time;
};

DecodeFloors::DecodeFloors(const Scenario& scenario)
    : scenario_(scenario), cost_(make_cost_model(scenario.cost_model, scenario.profile)) {
  if (!scenario.profile.empty()) profile_ = load_profile(scenario.profile);
  gemm_efficiency_ = best_gemm_efficiency(*cost_);
}

DecodeFloors::~DecodeFloors() = default;

double DecodeFloors::iteration_s(const HardwareSpec& card, int tp, double batch, double context) {
  std::unique_ptr<Instance>& instance = by_card_tp_[{card.name, tp}];
  if (!instance) {
    // As sim/engine/rollout_service.cpp configures an instance, but for the scale-up link.
    const Scenario& s = scenario_;
    instance = std::make_unique<Instance>();
    InstanceConfig& c = instance->config;
    c.model = &s.model;
    c.card = &card;
    c.cost = cost_.get();
    c.tp = tp;
    c.max_batch = s.rollout.max_batch;
    c.weights = s.rollout.weights;
    c.kv = s.rollout.kv_cache;
    c.engine = s.rollout.engine_overhead;
    const HardwareProfile* profile = profile_ ? &*profile_ : nullptr;
    if (profile && profile->card == card.name) c.engine = profile->engine.applied_to(c.engine);
    double fastest = card.intra_node_bw_bytes_per_s;
    for (const PoolSpec& pool : s.cluster.pools)
      fastest = std::max(fastest, pool.intra_node.bandwidth_bytes_per_s);
    c.tp_allreduce =
        tp_allreduce_pricing(profile, card.name, c.engine.name, tp, LinkSpec{fastest / 2.0, 0.0});
    c.decode_cost = std::make_shared<const DecodeIterationTime>(s.model, card, *cost_, tp, s.rollout.weights,
                                                                s.rollout.kv_cache);
    instance->time = std::make_unique<InstanceTime>(c);
  }
  return instance->time->iteration_s(batch, context);
}

std::vector<StepWork> drawn_step_work(const Scenario& scenario) {
  std::mt19937_64 rng(scenario.seed);  // as sim/engine/simulation.cpp seeds the run's draws
  std::vector<StepWork> steps;
  int next_id = 0;
  for (int k = 0; k < scenario.workload.steps; ++k) {
    const std::vector<Trajectory> trajectories = sample_step(scenario.workload, rng, next_id);
    next_id += static_cast<int>(trajectories.size());
    StepWork w;
    for (const Trajectory& t : trajectories) {
      TrajectoryWork tw;
      for (const LlmCall& call : t.calls) {
        const double before = call.context_tokens + call.prompt_tokens, out = call.output_tokens;
        w.prefill_tokens += call.prompt_tokens;
        tw.decode_tokens += out;
        tw.kv_token_reads += out * before + out * (out - 1.0) / 2.0;
      }
      if (!t.calls.empty()) {
        const LlmCall& last = t.calls.back();
        tw.train_tokens = last.context_tokens + last.prompt_tokens + last.output_tokens;
      }
      w.output_tokens += tw.decode_tokens;
      w.kv_token_reads += tw.kv_token_reads;
      w.train_tokens += tw.train_tokens;
      w.trajectories.push_back(tw);
    }
    steps.push_back(std::move(w));
  }
  return steps;
}

StepBound step_time_lower_bound(const Scenario& scenario, const std::vector<StepWork>& work,
                                const Arrangement& a, const ArrangementCards& cards, const PoolShape& pools,
                                DecodeFloors& floors) {
  StepBound out;
  if (work.empty()) return out;
  const int rollout_gpus = a.rollout_nodes * pools.rollout_gpus_per_node;
  const int train_gpus = a.train_nodes * pools.train_gpus_per_node;
  // Colocated: both phases on all the GPUs, one after the other.
  const bool colocated = a.policy == "colocated";
  const int r_gpus = colocated ? rollout_gpus + train_gpus : rollout_gpus;
  const int t_gpus = colocated ? rollout_gpus + train_gpus : train_gpus;
  // The steady window as sim/engine/steady_state.h takes it: one warm-up step from 2 steps on, one
  // drain step from 3 on.
  const int steps = static_cast<int>(work.size());
  const int warmup = steps >= 2 ? 1 : 0, drain = steps >= 3 ? 1 : 0;
  const int first = warmup, last = steps - drain - 1, n = last - first + 1;
  out.steady_steps = n;
  const int instances = std::max(1, r_gpus / (a.rollout_tp * scenario.rollout.pp));
  const double sync = colocated ? 0.0 : weight_sync_bound(scenario, *cards.train, pools, instances);
  if (a.policy == "streaming") {
    out.weight_sync_s = scenario.training.mini_batches * sync;
    out.step_s = streaming_bound(scenario, work, a, *cards.rollout, r_gpus, *cards.train, t_gpus, n,
                                 out.weight_sync_s, floors);
    return out;
  }
  out.weight_sync_s = sync;
  std::vector<double> rollout(work.size()), train(work.size());
  for (size_t k = 0; k < work.size(); ++k) {
    rollout[k] = rollout_bound(scenario, work[k], *cards.rollout, r_gpus, a.rollout_tp, floors);
    // Every step but colocated's ends by moving the new weights to the rollout pool.
    train[k] = training_bound(scenario, work[k].train_tokens, *cards.train, t_gpus, floors) + sync;
  }
  double both = 0.0, trained = 0.0;
  for (int k = first; k <= last; ++k) {
    both += rollout[static_cast<size_t>(k)] + train[static_cast<size_t>(k)];
    trained += train[static_cast<size_t>(k)];
  }
  if (synchronous_policy(a.policy)) {
    out.step_s = both / n;
    return out;
  }
  // overlap: the window opens as step first − 1 publishes its weights; the rollouts of steps from
  // first + s on start after that, one after another, and the last step then trains.
  double rolled = 0.0;
  for (int k = first + a.max_staleness; k <= last; ++k) rolled += rollout[static_cast<size_t>(k)];
  out.step_s = std::max(trained / n, (rolled + train[static_cast<size_t>(last)]) / n);
  return out;
}

}  // namespace rlsim
