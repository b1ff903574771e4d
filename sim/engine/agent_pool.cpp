// Trajectories to their agent hosts, and finished ones back to the orchestrator.
#include "sim/engine/agent_pool.h"

namespace rlsim {
namespace sg4 = simgrid::s4u;

AgentPool::AgentPool(const std::vector<sg4::Host*>& hosts, RolloutMonitor& monitor, SendCall send_call)
    : hosts_(hosts),
      monitor_(monitor),
      send_call_(std::move(send_call)),
      finished_callback_([this](TrajectoryResult&& result) { finish(std::move(result)); }),
      agent_hosts_(hosts.size()),
      finished_(sg4::Mailbox::by_name("trajectories-finished")) {}

void AgentPool::launch(const Trajectory& trajectory, int step) {
  monitor_.trajectory_started(sg4::Engine::get_clock());
  const size_t host_index = static_cast<size_t>(trajectory.id) % hosts_.size();
  std::unique_ptr<AgentHost>& host = agent_hosts_[host_index];
  if (!host) {
    host =
        std::make_unique<AgentHost>(hosts_[host_index], host_index, monitor_, send_call_, finished_callback_);
  }
  host->launch(trajectory, step);
}

void AgentPool::finish(TrajectoryResult&& result) {
  llm_wait_s_ += result.llm_wait_s;
  tool_s_ += result.tool_s;
  monitor_.trajectory_finished(result.finish_s);
  finished_->put_init(new TrajectoryResult(std::move(result)), 0)->detach();
}

TrajectoryResult AgentPool::wait_finished() {
  auto* result = finished_->get<TrajectoryResult>();
  TrajectoryResult copy = std::move(*result);
  delete result;
  return copy;
}

void AgentPool::stop() {
  for (auto& host : agent_hosts_) {
    if (host) host->stop();
  }
}

void AgentPool::join() {
  for (auto& host : agent_hosts_) {
    if (host) host->actor()->join();
  }
}

}  // namespace rlsim
