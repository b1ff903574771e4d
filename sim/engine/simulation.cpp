// Setting up a SimGrid engine for a scenario and running its policy.
#include "sim/engine/simulation.h"

#include <algorithm>
#include <optional>
#include <simgrid/s4u.hpp>
#include <thread>

#include "models/cost/cost_model_registry.h"
#include "models/cost/tallied_cost_model.h"
#include "sim/engine/faults/fault_metrics.h"
#include "sim/engine/faults/link_faults.h"
#include "sim/engine/policies/policy.h"
#include "sim/engine/timed_work.h"
#include "sim/platform/platform.h"
#include "sim/platform/topology.h"
#include "sim/scenario/profile_loader.h"

namespace rlsim {
namespace sg4 = simgrid::s4u;
namespace {

GpuGroup make_group(const std::vector<sg4::Host*>& hosts, const std::vector<int>& tracks, size_t first,
                    size_t count) {
  GpuGroup group;
  for (size_t i = first; i < first + count; ++i) {
    group.hosts.push_back(hosts[i]);
    group.tracks.push_back(tracks[i]);
  }
  return group;
}

}  // namespace

void check_policy(const Scenario& scenario) { make_policy(scenario.policy)->check(scenario); }

void run_on_engine(const Scenario& scenario, const SimulationOptions& options, bool single_job,
                   Timeline& timeline, const Orchestrate& orchestrate, const AfterRun& after) {
  // Before the engine: the AFD table's layer-level simulations run in child processes.
  std::optional<AfdIterationTable> afd_table;
  if (scenario.rollout.afd) {
    afd_table = AfdIterationTable::build(scenario,
                                         static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  }
  const auto engine = make_engine(options.simgrid_args);

  const Topology topology(scenario.cluster);
  const Platform platform = build_platform(scenario.cluster, topology);

  std::map<std::string, std::vector<int>> pool_tracks;
  for (size_t p = 0; p < scenario.cluster.pools.size(); ++p) {
    const PoolSpec& spec = scenario.cluster.pools[p];
    for (auto* host : platform.pools[p].gpus) {
      pool_tracks[spec.name].push_back(
          timeline.add_track(Track{host->get_name(), spec.name, true, spec.card.usd_per_hour}));
    }
  }

  const auto model = make_cost_model(scenario.cost_model, scenario.profile);
  const TalliedCostModel cost(*model);  // answers as the model, counting what answered each op
  RolloutMonitor monitor;
  RlContext context{scenario, platform, timeline, cost, monitor, std::mt19937_64(scenario.seed), {}, {}, {}};
  const PoolPlatform& rollout_pool = platform.pool(scenario.rollout.pool);
  const auto& rollout_tracks = pool_tracks[scenario.rollout.pool];
  if (const auto& afd = scenario.rollout.afd) {
    // An AFD instance: attention GPUs of the rollout pool, then FFN GPUs of the FFN pool.
    context.afd_table = &*afd_table;
    const PoolPlatform& ffn_pool = platform.pool(afd->ffn_pool);
    const auto& ffn_tracks = pool_tracks[afd->ffn_pool];
    const auto na = static_cast<size_t>(afd->attention_gpus), nf = static_cast<size_t>(afd->ffn_gpus);
    for (size_t i = 0; (i + 1) * na <= rollout_pool.gpus.size(); ++i) {
      GpuGroup group = make_group(rollout_pool.gpus, rollout_tracks, i * na, na);
      const GpuGroup ffn = make_group(ffn_pool.gpus, ffn_tracks, i * nf, nf);
      group.hosts.insert(group.hosts.end(), ffn.hosts.begin(), ffn.hosts.end());
      group.tracks.insert(group.tracks.end(), ffn.tracks.begin(), ffn.tracks.end());
      context.rollout_instances.push_back(std::move(group));
    }
  } else {
    // pp stages of tp consecutive GPUs each: a stage never straddles a node (tp divides it).
    const auto size = static_cast<size_t>(scenario.rollout.gpus_per_instance());
    for (size_t first = 0; first + size <= rollout_pool.gpus.size(); first += size) {
      context.rollout_instances.push_back(make_group(rollout_pool.gpus, rollout_tracks, first, size));
    }
  }
  const PoolPlatform& train_pool = platform.pool(scenario.training.pool);
  context.trainer =
      make_group(train_pool.gpus, pool_tracks[scenario.training.pool], 0, train_pool.gpus.size());
  // The lockstep units the trace shows as one track each (instances first: a colocated GPU is both).
  for (size_t i = 0; i < context.rollout_instances.size(); ++i)
    timeline.add_track_set(TrackSet{"instance " + std::to_string(i), context.rollout_instances[i].tracks});
  timeline.add_track_set(TrackSet{"trainer", context.trainer.tracks});

  for (size_t p = 0; p < scenario.cluster.pools.size(); ++p) {
    const PoolSpec& spec = scenario.cluster.pools[p];
    GpuGroup group =
        make_group(platform.pools[p].gpus, pool_tracks[spec.name], 0, platform.pools[p].gpus.size());
    group.pool = &spec;
    context.pools.push_back(std::move(group));
  }

  context.on_step = options.on_step;
  // Read here, not in an actor: a profile's YAML is too deep for an actor's small stack.
  std::optional<HardwareProfile> profile;
  if (!scenario.profile.empty()) profile = load_profile(scenario.profile);
  context.profile = profile ? &*profile : nullptr;
  context.rl_run = options.rl_run ? options.rl_run : profile && profile->rl_run ? &*profile->rl_run : nullptr;
  FaultState faults(scenario.faults, context.pools);
  faults.set_single_job(single_job);
  context.faults = &faults;
  // The simulator's unit of work: every exec started (finished or cancelled), every timed work
  // (sim/engine/timed_work.h) and every message sent. Counted where each starts, once: completion
  // signals fire once per side of a comm and again whenever a finished comm is waited on
  // (sim/engine/transport/activity_retirement.h). And every actor created.
  long execs = 0, messages = 0, actors = 0;
  const long sleeps_before = timed_work::started();
  sg4::Exec::on_start_cb([&execs](const sg4::Exec&) { ++execs; });
  sg4::Comm::on_send_cb([&messages](const sg4::Comm&) { ++messages; });
  sg4::Actor::on_creation_cb([&actors](sg4::Actor&) { ++actors; });
  sg4::Actor::create("orchestrator", platform.dataplane,
                     [&orchestrate, &context]() { orchestrate(context); });
  start_link_faults(scenario.faults, platform);
  run_engine(*engine);
  after(EngineRun{context, faults, execs, timed_work::started() - sleeps_before, messages, actors,
                  cost.tally()});
}

SimulationResult simulate(const Scenario& scenario, const SimulationOptions& options) {
  check_policy(scenario);
  auto policy = make_policy(scenario.policy);
  SimulationResult result;
  Timeline& timeline = result.timeline;
  run_on_engine(
      scenario, options, policy->single_job(), timeline,
      [&policy](RlContext& context) { policy->run(context); },
      [&](const EngineRun& run) {
        FaultState& faults = run.faults;
        RlContext& context = run.context;
        if (!faults.empty()) {
          // A failed GPU is down whatever its job recorded; overlapping records of one GPU (a job and
          // its instances both waiting out a repair) count once.
          double end = 0.0;
          for (const auto& step : timeline.steps()) end = std::max(end, step.end_s);
          faults.record_down(timeline, end);
          timeline.resolve_overlaps(fault_state_rank);
          timeline.clip(end);  // a failed instance may sit out its repair after the last step
        }

        timeline.yield_to_others(GpuState::wait(WaitCause::idle));
        context.monitor.classify(timeline);
        // Label scheduling refuses AFD and pipelined rollout (policies/labels.cpp), so the advisor
        // does not recommend it there.
        result.metrics = compute_metrics(timeline, scenario.policy.name, scenario.seed,
                                         !scenario.rollout.afd && scenario.rollout.pp == 1);
        result.metrics.simgrid_execs = run.execs;
        result.metrics.simgrid_sleeps = run.sleeps;
        result.metrics.simgrid_messages = run.messages;
        result.metrics.simgrid_actors = run.actors;
        result.metrics.cost_model = scenario.cost_model.name;
        result.metrics.prices = run.prices;
        if (context.rl_run) result.metrics.rl_run = *context.rl_run;
        result.ledger = std::move(context.ledger);
        const SteadyWindow& steady = result.metrics.steady;
        int imbalanced_steps = 0;
        for (size_t i = 0; i < timeline.steps().size(); ++i) {
          if (!steady.contains_step(i)) continue;
          const int id = timeline.steps()[i].step;
          if (const auto tokens = context.trained_tokens_by_step.find(id);
              tokens != context.trained_tokens_by_step.end())
            result.metrics.trained_tokens += tokens->second;
          if (const auto imbalance = context.rank_imbalance_by_step.find(id);
              imbalance != context.rank_imbalance_by_step.end()) {
            result.metrics.rank_imbalance += imbalance->second;
            ++imbalanced_steps;
          }
        }
        if (imbalanced_steps > 0) result.metrics.rank_imbalance /= imbalanced_steps;
        result.metrics.rollout_load =
            generating_load_figures(context.instance_load, steady.start_s, steady.end_s);
        for (InstanceLoad& instance : context.instance_load)
          result.instance_load.push_back(std::move(instance.samples));
        const FaultsSpec& fault_spec = scenario.faults;
        result.metrics.faults = fault_metrics(
            timeline, static_cast<int>(fault_spec.events.size() + fault_spec.link_events.size()));
        result.metrics.faults.links_failed = static_cast<int>(fault_spec.link_events.size());
        result.metrics.faults.link_seconds_down = link_seconds_down(fault_spec);
        result.metrics.agent_waits_llm =
            context.agent_llm_wait_s + context.agent_tool_s > 0.0
                ? context.agent_llm_wait_s / (context.agent_llm_wait_s + context.agent_tool_s)
                : 0.0;
      });
  return result;
}

}  // namespace rlsim
