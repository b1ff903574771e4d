// Wiring instances, router, data plane and agents; the agent's loop of LLM calls and tools.
#include "sim/engine/rollout_service.h"

#include <algorithm>
#include <map>
#include <memory>

#include "models/arch_params.h"

namespace rlsim {
namespace sg4 = simgrid::s4u;
namespace {

constexpr double kBytesPerToken = 4.0;  // token ids on the wire

}  // namespace

RolloutService::RolloutService(RlContext& context, const CostModel& cost, std::vector<GpuGroup> groups,
                               RolloutMonitor& monitor)
    : context_(context), cost_(cost), monitor_(monitor), finished_(sg4::Mailbox::by_name("trajectories-finished")) {
  const Scenario& s = context.scenario;
  const PoolSpec& pool = *s.cluster.pool(s.rollout.pool);
  router_ = make_router(s.rollout.router, static_cast<int>(groups.size()));
  InstanceConfig config;
  config.model = &s.model;
  config.card = &pool.card;
  config.cost = &cost_;
  config.tp = s.rollout.tp;
  config.max_batch = s.rollout.max_batch;
  config.weights = s.rollout.weights;
  config.kv = s.rollout.kv_cache;
  config.kv_capacity_tokens =
      kv_capacity_tokens(s.model, pool.card, s.rollout.tp, s.rollout.weights, s.rollout.kv_cache, s.rollout.activation_memory_fraction);
  config.prefix_cache = s.rollout.prefix_cache;
  config.swap_on_preempt = s.rollout.preemption == KvOverflow::swap;
  config.swap_bytes_per_s = s.rollout.swap_bandwidth_bytes_per_s;
  config.scale_up_bytes_per_s = pool.intra_node.bandwidth_bytes_per_s / 2.0;  // one direction, for ring all-reduce
  config.scale_up_latency_s = pool.intra_node.latency_s;
  config.output_bytes_per_token = kBytesPerToken;
  config.restart_s = s.faults.restart_s;
  auto decode_cost_on = [&](const HardwareSpec& card) {
    return std::make_shared<const DecodeIterationTime>(s.model, card, cost_, s.rollout.tp, s.rollout.weights,
                                                       s.rollout.kv_cache);
  };
  if (s.rollout.afd) {
    config.tp = s.rollout.afd->attention_gpus;
    config.kv_capacity_tokens = afd_kv_capacity_tokens(s.model, pool.card, config.tp, s.rollout.weights,
                                                       s.rollout.kv_cache, s.rollout.activation_memory_fraction);
    config.afd_table = context.afd_table;
  } else {
    config.decode_cost = decode_cost_on(pool.card);
  }
  std::map<std::string, std::shared_ptr<const DecodeIterationTime>> lent_cards;  // by pool
  for (size_t i = 0; i < groups.size(); ++i) {
    InstanceConfig own = config;
    if (groups[i].pool && groups[i].pool->name != pool.name) {
      // Label scheduling lends GPUs of other pools (possibly other cards) to rollout.
      const PoolSpec& other = *groups[i].pool;
      own.card = &other.card;
      own.kv_capacity_tokens = kv_capacity_tokens(s.model, other.card, s.rollout.tp, s.rollout.weights, s.rollout.kv_cache,
                                                  s.rollout.activation_memory_fraction);
      own.scale_up_bytes_per_s = other.intra_node.bandwidth_bytes_per_s / 2.0;
      own.scale_up_latency_s = other.intra_node.latency_s;
      auto [lent, first] = lent_cards.emplace(other.name, nullptr);
      if (first) lent->second = decode_cost_on(other.card);
      own.decode_cost = lent->second;
    }
    instances_.push_back(std::make_unique<InferenceInstance>(
        static_cast<int>(i), groups[i], own, context.timeline,
        [router = router_.get()](const LlmRequest& r) { router->on_finish(r); }));
    instances_.back()->set_displaced_handler([this, i](LlmRequest* r) { reroute(r, static_cast<int>(i)); });
  }
  if (s.cluster.dataplane.enabled) {
    std::vector<sg4::Mailbox*> mailboxes;
    for (const auto& instance : instances_) mailboxes.push_back(instance->mailbox());
    const int track = context.timeline.add_track(Track{"trajectory-manager", "dataplane", false, 0.0});
    data_plane_ = std::make_unique<TrajectoryManager>(context.platform.dataplane, track, s.cluster.dataplane.seconds_per_record,
                                                      s.cluster.dataplane.bytes_per_s, kBytesPerToken, *router_,
                                                      mailboxes, static_cast<int>(context.platform.agent_hosts.size()),
                                                      context.timeline);
  }
  for (auto* host : context.platform.agent_hosts) tool_cores_.push_back(sg4::Semaphore::create(host->get_core_count()));
  idle_agents_.resize(context.platform.agent_hosts.size());
}

void RolloutService::start() {
  for (auto& instance : instances_) {
    actors_.push_back(sg4::Actor::create("instance", instance->group().leader(), [i = instance.get()]() { i->serve(); }));
  }
  if (data_plane_) {
    actors_.push_back(sg4::Actor::create("trajectory-manager", context_.platform.dataplane,
                                         [tm = data_plane_.get()]() { tm->serve(); }));
  }
  if (context_.faults && !context_.faults->empty()) {
    // A daemon: it ends with the simulation, even with faults scheduled after the last step.
    sg4::Actor::create("fault-notifier", context_.platform.dataplane, [this]() { notify_faults(); })->daemonize();
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
  std::stable_sort(moments.begin(), moments.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [at, event] : moments) {
    sg4::this_actor::sleep_until(at);
    const size_t e = static_cast<size_t>(event >= 0 ? event : ~event);
    for (size_t i = 0; i < instances_.size(); ++i) {
      if (!faults.stops(e, instances_[i]->group().hosts)) continue;
      if (event >= 0) {
        router_->set_available(static_cast<int>(i), false);
        const double down_s = faults.repaired_s(e) - sg4::Engine::get_clock();
        instances_[i]->mailbox()->put_init(new InstanceMessage{InstanceMessage::Kind::fail, nullptr, 0, down_s}, 0)->detach();
      } else if (preempted_.count(static_cast<int>(i)) == 0 &&
                 faults.running_again(sg4::Engine::get_clock() - faults.spec().restart_s, instances_[i]->group().hosts) <=
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

void RolloutService::launch(const Trajectory& trajectory, int step) {
  monitor_.trajectory_started(sg4::Engine::get_clock());
  ++launched_;
  const auto& hosts = context_.platform.agent_hosts;
  const size_t host_index = static_cast<size_t>(trajectory.id) % hosts.size();
  auto* job = new AgentJob{trajectory, step};
  std::vector<int>& idle = idle_agents_[host_index];
  if (!idle.empty()) {
    const int slot = idle.back();
    idle.pop_back();
    agents_[static_cast<size_t>(slot)].job = job;
    agents_[static_cast<size_t>(slot)].wake->release();
    return;
  }
  const int slot = static_cast<int>(agents_.size());
  agents_.push_back(AgentSlot{sg4::Semaphore::create(0), nullptr});
  sg4::Actor::create("agent", hosts[host_index], [this, slot, host_index, job]() { agent_loop(slot, host_index, job); });
}

void RolloutService::agent_loop(int slot, size_t host_index, AgentJob* first) {
  for (AgentJob* job = first; job != &stop_job_;) {
    run_agent(job->trajectory, job->step, slot);
    delete job;
    if (stopping_) return;
    idle_agents_[host_index].push_back(slot);
    // Copy the handle: the vector may grow (and move) while this agent waits.
    const sg4::SemaphorePtr wake = agents_[static_cast<size_t>(slot)].wake;
    wake->acquire();
    job = agents_[static_cast<size_t>(slot)].job;
  }
}

void RolloutService::run_agent(const Trajectory& trajectory, int step, int slot) {
  sg4::Mailbox* inbox = sg4::Mailbox::by_name("agent-" + std::to_string(slot));
  const auto& hosts = context_.platform.agent_hosts;
  const size_t host_index = static_cast<size_t>(trajectory.id) % hosts.size();
  TrajectoryResult result;
  result.id = trajectory.id;
  result.step = step;
  for (size_t turn = 0; turn < trajectory.calls.size(); ++turn) {
    const LlmCall& call = trajectory.calls[turn];
    LlmRequest request;
    request.trajectory = trajectory.id;
    request.turn = static_cast<int>(turn);
    request.step = step;
    request.new_tokens = call.prompt_tokens;
    request.context_tokens = call.context_tokens;
    request.output_tokens = call.output_tokens;
    request.submit_s = sg4::Engine::get_clock();
    request.agent_inbox = inbox;
    const auto bytes = static_cast<uint64_t>(call.prompt_tokens * kBytesPerToken);
    if (data_plane_) {
      request.data_plane = data_plane_.get();
      data_plane_->send_call(&request, static_cast<int>(host_index), static_cast<double>(bytes));
    } else {
      request.instance = router_->route(request);
      auto* message = new InstanceMessage{InstanceMessage::Kind::request, &request, 0, 0.0};
      instances_[static_cast<size_t>(request.instance)]->mailbox()->put(message, bytes);
    }
    inbox->get<LlmRequest>();
    result.llm_wait_s += sg4::Engine::get_clock() - request.submit_s;
    result.generated_tokens += request.output_tokens;
    result.version_token_sum += request.version_token_sum;
    result.total_tokens = request.context_tokens + request.new_tokens + request.output_tokens;
    if (call.tool_latency_s > 0.0) {
      const double tool_start = sg4::Engine::get_clock();
      monitor_.tool_started(tool_start);
      tool_cores_[host_index]->acquire();
      sg4::this_actor::sleep_for(call.tool_latency_s);
      tool_cores_[host_index]->release();
      monitor_.tool_finished(sg4::Engine::get_clock());
      result.tool_s += sg4::Engine::get_clock() - tool_start;
    }
  }
  agent_llm_wait_s_ += result.llm_wait_s;
  agent_tool_s_ += result.tool_s;
  result.finish_s = sg4::Engine::get_clock();
  monitor_.trajectory_finished(result.finish_s);
  finished_->put_init(new TrajectoryResult(result), 0)->detach();
}

TrajectoryResult RolloutService::wait_finished() {
  auto* result = finished_->get<TrajectoryResult>();
  TrajectoryResult copy = *result;
  delete result;
  return copy;
}

void RolloutService::update_weights(int version, double pause_s) {
  for (auto& instance : instances_) {
    instance->mailbox()->put_init(new InstanceMessage{InstanceMessage::Kind::update_weights, nullptr, version, pause_s}, 0)
        ->detach();
  }
}

void RolloutService::update_weights(int version, double pause_s, const std::vector<int>& indices) {
  for (int i : indices) {
    instances_[static_cast<size_t>(i)]->mailbox()
        ->put_init(new InstanceMessage{InstanceMessage::Kind::update_weights, nullptr, version, pause_s}, 0)
        ->detach();
  }
}

std::vector<double> RolloutService::preempt(const std::vector<int>& indices, Preemption mode) {
  sg4::Mailbox* ack = sg4::Mailbox::by_name("preempt-ack");
  for (int i : indices) {
    router_->set_available(i, false);
    preempted_.insert(i);
  }
  for (int i : indices) {
    auto* message = new InstanceMessage{InstanceMessage::Kind::preempt, nullptr, 0, 0.0, mode, ack};
    instances_[static_cast<size_t>(i)]->mailbox()->put_init(message, 0)->detach();
  }
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
    if (!context_.faults || context_.faults->running_again(now, hosts) <= now) router_->set_available(i, true);
    instances_[static_cast<size_t>(i)]->mailbox()
        ->put_init(new InstanceMessage{InstanceMessage::Kind::resume, nullptr, version, pause_s}, 0)
        ->detach();
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
  const auto bytes = static_cast<uint64_t>(request->new_tokens * kBytesPerToken);
  auto* message = new InstanceMessage{InstanceMessage::Kind::request, request, 0, 0.0};
  instances_[static_cast<size_t>(request->instance)]->mailbox()->put_init(message, bytes)->detach();
}

void RolloutService::stop() {
  stopping_ = true;  // agents still busy end after their trajectory; idle ones are told now
  for (const auto& idle : idle_agents_) {
    for (int slot : idle) {
      agents_[static_cast<size_t>(slot)].job = &stop_job_;
      agents_[static_cast<size_t>(slot)].wake->release();
    }
  }
  for (auto& idle : idle_agents_) idle.clear();
  for (auto& instance : instances_) {
    instance->mailbox()->put_init(new InstanceMessage{InstanceMessage::Kind::stop, nullptr, 0, 0.0}, 0)->detach();
  }
  if (data_plane_) data_plane_->stop();
  for (auto& actor : actors_) actor->join();
  actors_.clear();
  if (data_plane_) {
    const auto& ledger = data_plane_->ledger();
    context_.ledger.insert(context_.ledger.end(), ledger.begin(), ledger.end());
  }
}

}  // namespace rlsim
