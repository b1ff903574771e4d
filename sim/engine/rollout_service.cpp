// Wiring instances, router, data plane and agents; messages to the instances; calls that move.
#include "sim/engine/rollout_service.h"

#include <algorithm>
#include <map>
#include <memory>

#include "models/arch_params.h"
#include "sim/scenario/profile_loader.h"

namespace rlsim {
namespace sg4 = simgrid::s4u;

namespace {

/// The rollout's engine preset on `pool`'s card, with what the scenario's calibrated profile
/// measured when it was fitted for that card: its engine terms and its TP all-reduces (the engine's
/// own, or NCCL; else a ring over the pool's scale-up link, one direction). The profile was read
/// before the engine started (RlContext::profile): parsing it here, on an actor's small stack,
/// overflowed that stack.
void apply_engine(const RlContext& context, const PoolSpec& pool, int tp, InstanceConfig& config) {
  const HardwareProfile* profile = context.profile;
  config.engine = context.scenario.rollout.engine_overhead;
  if (profile && profile->card == pool.card.name) config.engine = profile->engine.applied_to(config.engine);
  const LinkSpec scale_up{pool.intra_node.bandwidth_bytes_per_s / 2.0, pool.intra_node.latency_s};
  config.tp_allreduce = tp_allreduce_pricing(profile, pool.card.name, config.engine.name, tp, scale_up);
  if (const RlRunTerms* run = context.rl_run_on(pool.card.name))
    config.generation_efficiency = run->generation_efficiency;
}

/// The link between consecutive pipeline stages of `group`: the node's scale-up link (one
/// direction) when all its GPUs sit in one node, else the GPU's scale-out NIC (its bandwidth is one
/// direction's) for every hop, the slower link pacing the round.
LinkSpec stage_link(const PoolSpec& pool, const GpuGroup& group) {
  const sg4::NetZone* node = group.leader()->get_englobing_zone();  // a node is a zone (sim/platform)
  const bool one_node = std::all_of(group.hosts.begin(), group.hosts.end(),
                                    [node](sg4::Host* host) { return host->get_englobing_zone() == node; });
  if (one_node) return {pool.intra_node.bandwidth_bytes_per_s / 2.0, pool.intra_node.latency_s};
  return {pool.nic.bandwidth_bytes_per_s, pool.nic.latency_s};
}

}  // namespace

RolloutService::RolloutService(RlContext& context, const CostModel& cost, std::vector<GpuGroup> groups,
                               RolloutMonitor& monitor)
    : context_(context),
      cost_(cost),
      agents_(context.platform.agent_hosts, monitor,
              [this](LlmRequest& request, size_t agent_host, uint64_t bytes) {
                send_call(request, agent_host, bytes);
              }) {
  const Scenario& s = context.scenario;
  const PoolSpec& pool = *s.cluster.pool(s.rollout.pool);
  router_ = make_router(s.rollout.router, static_cast<int>(groups.size()));
  InstanceConfig config;
  config.model = &s.model;
  config.card = &pool.card;
  config.cost = &cost_;
  config.tp = s.rollout.tp;
  config.pp = s.rollout.pp;
  config.max_batch = s.rollout.max_batch;
  config.weights = s.rollout.weights;
  config.kv = s.rollout.kv_cache;
  config.kv_capacity_tokens =
      kv_capacity_tokens(s.model, pool.card, s.rollout.tp, s.rollout.pp, s.rollout.weights,
                         s.rollout.kv_cache, s.rollout.activation_memory_fraction);
  config.prefix_cache = s.rollout.prefix_cache;
  config.swap_on_preempt = s.rollout.preemption == KvOverflow::swap;
  config.swap_bytes_per_s = s.rollout.swap_bandwidth_bytes_per_s;
  config.output_bytes_per_token = kWireBytesPerToken;
  config.restart_s = s.faults.restart_s;
  config.scheduler = s.rollout.scheduler.name;
  config.scheduler_params = s.rollout.scheduler.params;
  auto decode_cost_on = [&](const HardwareSpec& card) {
    return std::make_shared<const DecodeIterationTime>(s.model, card, cost_, s.rollout.tp, s.rollout.weights,
                                                       s.rollout.kv_cache);
  };
  if (s.rollout.afd) {
    config.tp = s.rollout.afd->attention_gpus;
    config.kv_capacity_tokens =
        afd_kv_capacity_tokens(s.model, pool.card, config.tp, s.rollout.weights, s.rollout.kv_cache,
                               s.rollout.activation_memory_fraction);
    config.afd_table = context.afd_table;
  } else {
    config.decode_cost = decode_cost_on(pool.card);
  }
  // The all-reduces of the instance's own group: an AFD instance's attention GPUs prefill as one.
  apply_engine(context, pool, config.tp, config);
  std::map<std::string, std::shared_ptr<const DecodeIterationTime>> lent_cards;  // by pool
  for (size_t i = 0; i < groups.size(); ++i) {
    InstanceConfig own = config;
    if (s.rollout.pp > 1) own.stage_link = stage_link(groups[i].pool ? *groups[i].pool : pool, groups[i]);
    if (groups[i].pool && groups[i].pool->name != pool.name) {
      // Label scheduling lends GPUs of other pools (possibly other cards) to rollout.
      const PoolSpec& other = *groups[i].pool;
      own.card = &other.card;
      own.kv_capacity_tokens =
          kv_capacity_tokens(s.model, other.card, s.rollout.tp, s.rollout.pp, s.rollout.weights,
                             s.rollout.kv_cache, s.rollout.activation_memory_fraction);
      apply_engine(context_, other, own.tp, own);
      auto [lent, first] = lent_cards.emplace(other.name, nullptr);
      if (first) lent->second = decode_cost_on(other.card);
      own.decode_cost = lent->second;
    }
    instances_.push_back(std::make_unique<InferenceInstance>(
        static_cast<int>(i), groups[i], own, context.timeline, links_of(static_cast<int>(i))));
  }
  if (s.cluster.dataplane.enabled) {
    std::vector<sg4::Mailbox*> mailboxes;
    for (const auto& instance : instances_) mailboxes.push_back(instance->mailbox());
    const int track = context.timeline.add_track(Track{"trajectory-manager", "dataplane", false, 0.0});
    data_plane_ = std::make_unique<TrajectoryManager>(
        context.platform.dataplane, track, s.cluster.dataplane.seconds_per_record,
        s.cluster.dataplane.bytes_per_s, kWireBytesPerToken, *router_, mailboxes,
        static_cast<int>(context.platform.agent_hosts.size()), context.timeline);
  }
}

InstanceLinks RolloutService::links_of(int i) {
  InstanceLinks links;
  links.on_finish = [router = router_.get()](const LlmRequest& r) { router->on_finish(r); };
  links.send_reply = [this](LlmRequest& r, double bytes) {
    // The instance's actor sends it: through the data plane, or straight to the agent.
    return data_plane_ ? data_plane_->send_reply(&r, bytes)
                       : r.agent_inbox->put_async(&r, static_cast<uint64_t>(bytes));
  };
  links.displace = [this, i](LlmRequest* r) { reroute(r, i); };
  links.taken = [this, i](size_t count) { data_plane_->calls_taken(i, count); };
  return links;
}

void RolloutService::post(int i, const InstanceMessage& message, uint64_t bytes) {
  sg4::Mailbox* to = instances_[static_cast<size_t>(i)]->mailbox();
  auto* payload = new InstanceMessage(message);
  if (!control_sends_.empty() && !control_closed_ &&
      sg4::this_actor::get_host() == context_.platform.dataplane) {
    control_sends_[static_cast<size_t>(i) / kInstancesPerSendQueue]->send(to, payload, bytes);
  } else {
    to->put_init(payload, bytes)->detach();
  }
}

void RolloutService::start() {
  for (auto& instance : instances_) {
    actors_.push_back(
        sg4::Actor::create("instance", instance->group().leader(), [i = instance.get()]() { i->serve(); }));
  }
  // Calls an agent host sends at one instant to one destination travel as one transfer.
  for (sg4::Host* host : context_.platform.agent_hosts) {
    call_batchers_.push_back(
        std::make_unique<CallBatcher>(host, [this](sg4::Mailbox* to, CallBatch calls) -> void* {
          if (data_plane_) return data_plane_->wrap_calls(to, std::move(calls));
          return new InstanceMessage(InstanceMessage::requests(std::move(calls)));
        }));
    actors_.push_back(call_batchers_.back()->actor());
  }
  for (size_t i = 0; i < instances_.size(); i += kInstancesPerSendQueue)
    control_sends_.push_back(std::make_unique<SendQueue>(context_.platform.dataplane));
  if (data_plane_) {
    actors_.push_back(sg4::Actor::create("trajectory-manager", context_.platform.dataplane,
                                         [tm = data_plane_.get()]() { tm->serve(); }));
  }
  if (context_.faults && !context_.faults->empty()) {
    // A daemon: it ends with the simulation, even with faults scheduled after the last step.
    sg4::Actor::create("fault-notifier", context_.platform.dataplane, [this]() {
      notify_faults();
    })->daemonize();
  }
}

void RolloutService::notify_faults() {
  const FaultState& faults = *context_.faults;
  // Failures at their times; each instance comes back at its repair plus its restart.
  std::vector<std::pair<double, int>> moments;  // (time, event index; negative = repair of ~index)
  for (size_t e = 0; e < faults.spec().events.size(); ++e) {
    moments.emplace_back(faults.spec().events[e].at_s, static_cast<int>(e));
    moments.emplace_back(faults.repaired_s(e) + faults.spec().restart_s, ~static_cast<int>(e));
  }
  std::stable_sort(moments.begin(), moments.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [at, event] : moments) {
    sg4::this_actor::sleep_until(at);
    const size_t e = static_cast<size_t>(event >= 0 ? event : ~event);
    for (size_t i = 0; i < instances_.size(); ++i) {
      if (!faults.stops(e, instances_[i]->group().hosts)) continue;
      if (event >= 0) {
        router_->set_available(static_cast<int>(i), false);
        const double down_s = faults.repaired_s(e) - sg4::Engine::get_clock();
        post(static_cast<int>(i), InstanceMessage::fail(down_s));
      } else if (preempted_.count(static_cast<int>(i)) == 0 &&
                 faults.running_again(sg4::Engine::get_clock() - faults.spec().restart_s,
                                      instances_[i]->group().hosts) <=
                     sg4::Engine::get_clock() - faults.spec().restart_s) {
        router_->set_available(static_cast<int>(i), true);
      }
    }
    if (event < 0) {
      std::vector<LlmRequest*> parked;
      parked.swap(parked_);
      for (LlmRequest* request : parked) reroute(request, -1);
    }
  }
}

std::vector<sg4::Host*> RolloutService::instance_leaders() const {
  std::vector<sg4::Host*> leaders;
  for (const auto& instance : instances_) leaders.push_back(instance->group().leader());
  return leaders;
}

void RolloutService::set_step(int step) {
  for (auto& instance : instances_) instance->set_step(step);
  if (data_plane_) data_plane_->set_step(step);
}

void RolloutService::send_call(LlmRequest& request, size_t agent_host, uint64_t bytes) {
  CallBatcher& batcher = *call_batchers_[agent_host];
  if (data_plane_) {
    batcher.send(data_plane_->calls_mailbox(static_cast<int>(agent_host)), &request, bytes);
  } else {
    request.instance = router_->route(request);
    batcher.send(instances_[static_cast<size_t>(request.instance)]->mailbox(), &request, bytes);
  }
}

void RolloutService::update_weights(int version, double pause_s) {
  for (size_t i = 0; i < instances_.size(); ++i)
    post(static_cast<int>(i), InstanceMessage::weights(version, pause_s));
}

void RolloutService::update_weights(int version, double pause_s, const std::vector<int>& indices) {
  for (int i : indices) post(i, InstanceMessage::weights(version, pause_s));
}

std::vector<double> RolloutService::preempt(const std::vector<int>& indices, Preemption mode) {
  sg4::Mailbox* ack = sg4::Mailbox::by_name("preempt-ack");
  for (int i : indices) {
    router_->set_available(i, false);
    preempted_.insert(i);
  }
  for (int i : indices) post(i, InstanceMessage::preempt(mode, ack));
  std::vector<double> stopped(indices.size(), 0.0);
  for (size_t n = 0; n < indices.size(); ++n) {
    int* index = ack->get<int>();
    const auto at = std::find(indices.begin(), indices.end(), *index);
    stopped[static_cast<size_t>(at - indices.begin())] = sg4::Engine::get_clock();
    delete index;
  }
  return stopped;
}

void RolloutService::resume(const std::vector<int>& indices, int version, double pause_s) {
  const double now = sg4::Engine::get_clock();
  for (int i : indices) {
    preempted_.erase(i);
    const auto& hosts = instances_[static_cast<size_t>(i)]->group().hosts;
    if (!context_.faults || context_.faults->running_again(now, hosts) <= now)
      router_->set_available(i, true);
    post(i, InstanceMessage::resume(version, pause_s));
  }
  std::vector<LlmRequest*> parked;
  parked.swap(parked_);
  for (LlmRequest* request : parked) reroute(request, -1);
}

void RolloutService::reroute(LlmRequest* request, int from) {
  if (from >= 0) router_->on_finish(*request);  // releases the instance that gave it up
  bool any = false;
  for (size_t i = 0; i < instances_.size() && !any; ++i) any = router_->available(static_cast<int>(i));
  if (!any) {
    parked_.push_back(request);
    return;
  }
  request->instance = router_->route(*request);
  post(request->instance, InstanceMessage::request(request),
       static_cast<uint64_t>(request->new_tokens * kWireBytesPerToken));
}

void RolloutService::stop() {
  agents_.stop();
  for (auto& batcher : call_batchers_) batcher->close();
  for (size_t i = 0; i < instances_.size(); ++i) post(static_cast<int>(i), InstanceMessage::stop());
  for (auto& queue : control_sends_) queue->close();
  control_closed_ = true;
  if (data_plane_) data_plane_->stop();
  for (auto& actor : actors_) actor->join();
  actors_.clear();
  agents_.join();
  if (data_plane_) {
    const auto& ledger = data_plane_->ledger();
    context_.ledger.insert(context_.ledger.end(), ledger.begin(), ledger.end());
  }
  for (const auto& instance : instances_) {
    context_.instance_load.push_back(
        {instance->load(), instance->config().max_batch, instance->config().kv_capacity_tokens});
  }
}

}  // namespace rlsim
