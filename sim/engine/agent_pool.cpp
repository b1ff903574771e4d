// The agents' loop of LLM calls and tools, and their reuse across trajectories.
#include "sim/engine/agent_pool.h"

namespace rlsim {
namespace sg4 = simgrid::s4u;

AgentPool::AgentPool(const std::vector<sg4::Host*>& hosts, RolloutMonitor& monitor, SendCall send_call)
    : hosts_(hosts),
      monitor_(monitor),
      send_call_(std::move(send_call)),
      finished_(sg4::Mailbox::by_name("trajectories-finished")) {
  for (auto* host : hosts_) tool_cores_.push_back(sg4::Semaphore::create(host->get_core_count()));
  idle_agents_.resize(hosts_.size());
}

void AgentPool::launch(const Trajectory& trajectory, int step) {
  monitor_.trajectory_started(sg4::Engine::get_clock());
  const size_t host_index = static_cast<size_t>(trajectory.id) % hosts_.size();
  auto* job = new Job{trajectory, step};
  std::vector<int>& idle = idle_agents_[host_index];
  if (!idle.empty()) {
    const int slot = idle.back();
    idle.pop_back();
    agents_[static_cast<size_t>(slot)].job = job;
    agents_[static_cast<size_t>(slot)].wake->release();
    return;
  }
  const int slot = static_cast<int>(agents_.size());
  agents_.push_back(Slot{sg4::Semaphore::create(0), nullptr});
  sg4::Actor::create("agent", hosts_[host_index],
                     [this, slot, host_index, job]() { agent_loop(slot, host_index, job); });
}

void AgentPool::agent_loop(int slot, size_t host_index, Job* first) {
  for (Job* job = first; job != &stop_job_;) {
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

void AgentPool::run_agent(const Trajectory& trajectory, int step, int slot) {
  sg4::Mailbox* inbox = sg4::Mailbox::by_name("agent-" + std::to_string(slot));
  const size_t host_index = static_cast<size_t>(trajectory.id) % hosts_.size();
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
    send_call_(request, host_index, static_cast<uint64_t>(call.prompt_tokens * kWireBytesPerToken));
    inbox->get<LlmRequest>();
    result.calls.push_back(request);
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
  llm_wait_s_ += result.llm_wait_s;
  tool_s_ += result.tool_s;
  result.finish_s = sg4::Engine::get_clock();
  monitor_.trajectory_finished(result.finish_s);
  finished_->put_init(new TrajectoryResult(result), 0)->detach();
}

TrajectoryResult AgentPool::wait_finished() {
  auto* result = finished_->get<TrajectoryResult>();
  TrajectoryResult copy = *result;
  delete result;
  return copy;
}

void AgentPool::stop() {
  stopping_ = true;
  for (const auto& idle : idle_agents_) {
    for (int slot : idle) {
      agents_[static_cast<size_t>(slot)].job = &stop_job_;
      agents_[static_cast<size_t>(slot)].wake->release();
    }
  }
  for (auto& idle : idle_agents_) idle.clear();
}

}  // namespace rlsim
