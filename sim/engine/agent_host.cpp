// One agent host's actor: replies and tool ends drive its trajectories from call to tool to call.
#include "sim/engine/agent_host.h"

#include <algorithm>
#include <string>

namespace rlsim {
namespace sg4 = simgrid::s4u;

AgentHost::AgentHost(sg4::Host* host, size_t index, RolloutMonitor& monitor, const SendCall& send_call,
                     const Finished& finished)
    : host_(host),
      index_(index),
      monitor_(monitor),
      send_call_(send_call),
      finished_(finished),
      inbox_(sg4::Mailbox::by_name("agents-" + std::to_string(index))),
      free_cores_(host->get_core_count()) {
  actor_ = sg4::Actor::create("agents", host_, [this]() { run(); });
}

void AgentHost::launch(const Trajectory& trajectory, int step) {
  auto* agent = new Agent{};
  agent->trajectory = trajectory;
  agent->result.id = trajectory.id;
  agent->result.step = step;
  ++in_hand_;
  next_call(*agent);
}

void AgentHost::stop() { inbox_->put_init(&stop_signal_, 0)->detach(); }

void AgentHost::next_call(Agent& agent) {
  if (agent.turn >= agent.trajectory.calls.size()) {
    agent.result.finish_s = sg4::Engine::get_clock();
    TrajectoryResult result = std::move(agent.result);
    delete &agent;
    --in_hand_;
    finished_(std::move(result));
    return;
  }
  const LlmCall& call = agent.trajectory.calls[agent.turn];
  agent.request = LlmRequest{};
  agent.request.trajectory = agent.trajectory.id;
  agent.request.turn = static_cast<int>(agent.turn);
  agent.request.step = agent.result.step;
  agent.request.new_tokens = call.prompt_tokens;
  agent.request.context_tokens = call.context_tokens;
  agent.request.output_tokens = call.output_tokens;
  agent.request.shared_prefix_tokens = call.shared_prefix_tokens;
  agent.request.prefix_group = call.prefix_group;
  agent.request.submit_s = sg4::Engine::get_clock();
  agent.request.api_server_s = call.api_server_s;
  agent.request.agent_inbox = inbox_;
  awaiting_reply_.emplace(&agent.request, &agent);
  send_call_(agent.request, index_, static_cast<uint64_t>(call.prompt_tokens * kWireBytesPerToken));
}

void AgentHost::take_reply(LlmRequest* reply) {
  const auto it = awaiting_reply_.find(reply);
  Agent& agent = *it->second;
  awaiting_reply_.erase(it);
  const LlmRequest& request = agent.request;
  TrajectoryResult& result = agent.result;
  const double now = sg4::Engine::get_clock();
  result.calls.push_back(request);
  result.llm_wait_s += now + request.api_server_s - request.submit_s;
  result.generated_tokens += request.output_tokens;
  result.version_token_sum += request.version_token_sum;
  result.total_tokens = request.context_tokens + request.new_tokens + request.output_tokens;
  result.truncated = agent.trajectory.calls[agent.turn].truncated;  // the latest reply's
  if (request.api_server_s > 0.0) {
    due_.push(Due{now + request.api_server_s, dues_set_++, &agent, Due::Kind::reply_seen});
    return;
  }
  reply_seen(agent);
}

void AgentHost::reply_seen(Agent& agent) {
  const double tool_latency_s = agent.trajectory.calls[agent.turn].tool_latency_s;
  if (tool_latency_s > 0.0) {
    agent.tool_latency_s = tool_latency_s;
    start_tool(agent);
    return;
  }
  ++agent.turn;
  next_call(agent);
}

void AgentHost::start_tool(Agent& agent) {
  const double now = sg4::Engine::get_clock();
  agent.tool_start_s = now;
  monitor_.tool_started(now);
  if (free_cores_ > 0) {
    --free_cores_;
    run_tool(agent, now);
  } else {
    waiting_for_core_.push_back(&agent);
  }
}

void AgentHost::run_tool(Agent& agent, double now) {
  due_.push(Due{now + agent.tool_latency_s, dues_set_++, &agent, Due::Kind::tool_end});
}

void AgentHost::end_tool(Agent& agent, double now) {
  if (waiting_for_core_.empty()) {
    ++free_cores_;
  } else {
    Agent* next = waiting_for_core_.front();
    waiting_for_core_.pop_front();
    run_tool(*next, now);
  }
  monitor_.tool_finished(now);
  agent.result.tool_s += now - agent.tool_start_s;
  ++agent.turn;
  next_call(agent);
}

void AgentHost::handle_due() {
  const double at_s = due_.top().at_s;
  while (!due_.empty() && due_.top().at_s <= at_s) {
    const Due due = due_.top();
    due_.pop();
    if (due.kind == Due::Kind::tool_end) {
      end_tool(*due.agent, sg4::Engine::get_clock());
    } else {
      reply_seen(*due.agent);
    }
  }
}

void AgentHost::run() {
  // Permanent receiver: a reply travels as soon as it is sent, whatever the actor is doing, and the
  // actor takes replies in the order they were sent.
  inbox_->set_receiver(sg4::Actor::self());
  LlmRequest* arrived = nullptr;
  sg4::CommPtr receive = inbox_->get_async<LlmRequest>(&arrived);
  while (!(stopping_ && in_hand_ == 0)) {
    const double timeout = due_.empty() ? -1.0 : std::max(0.0, due_.top().at_s - sg4::Engine::get_clock());
    if (sg4::Comm::wait_any_for({receive}, timeout) < 0) {
      handle_due();
      continue;
    }
    if (arrived == &stop_signal_) {
      stopping_ = true;
    } else {
      take_reply(arrived);
    }
    receive = inbox_->get_async<LlmRequest>(&arrived);
  }
  receive->cancel();
  inbox_->set_receiver(nullptr);
}

}  // namespace rlsim
