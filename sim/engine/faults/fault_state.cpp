// Fault events mapped onto GPUs, and which jobs they stop.
#include "sim/engine/faults/fault_state.h"

#include <algorithm>

#include "sim/engine/rl_context.h"

namespace rlsim {

int fault_state_rank(GpuState state) {
  if (state == GpuState::down()) return 0;
  if (state.is(StateKind::busy)) return 1;
  if (state == GpuState::switching()) return 2;
  if (state == GpuState::wait(WaitCause::fault)) return 3;
  return 4;
}

FaultState::FaultState(const FaultsSpec& spec, const std::vector<GpuGroup>& pools) : spec_(spec) {
  for (const FaultEvent& e : spec_.events) {
    std::vector<simgrid::s4u::Host*> hosts;
    std::vector<int> tracks;
    for (const GpuGroup& pool : pools) {
      if (pool.pool->name != e.pool) continue;
      for (int g = e.first_gpu; g < e.first_gpu + e.gpus; ++g) {
        hosts.push_back(pool.hosts[static_cast<size_t>(g)]);
        tracks.push_back(pool.tracks[static_cast<size_t>(g)]);
      }
    }
    victims_.push_back(std::move(hosts));
    victim_tracks_.push_back(std::move(tracks));
  }
}

bool FaultState::stops(size_t e, const std::vector<simgrid::s4u::Host*>& hosts) const {
  if (single_job_) return true;
  for (auto* victim : victims_[e]) {
    if (std::find(hosts.begin(), hosts.end(), victim) != hosts.end()) return true;
  }
  return false;
}

std::optional<size_t> FaultState::next_stop(double from,
                                            const std::vector<simgrid::s4u::Host*>& hosts) const {
  for (size_t e = 0; e < spec_.events.size(); ++e) {
    if (spec_.events[e].at_s >= from && stops(e, hosts)) return e;
  }
  return std::nullopt;
}

double FaultState::running_again(double now, const std::vector<simgrid::s4u::Host*>& hosts) const {
  // Overlapping repairs chain: keep extending while another event holds the job down.
  double until = now;
  for (bool extended = true; extended;) {
    extended = false;
    for (size_t e = 0; e < spec_.events.size(); ++e) {
      if (spec_.events[e].at_s <= until && repaired_s(e) > until && stops(e, hosts)) {
        until = repaired_s(e);
        extended = true;
      }
    }
  }
  return until;
}

void FaultState::record_down(Timeline& timeline, double end_s) const {
  for (size_t e = 0; e < spec_.events.size(); ++e) {
    const double start = std::min(spec_.events[e].at_s, end_s);
    for (int track : victim_tracks_[e])
      timeline.record(track, GpuState::down(), start, std::min(repaired_s(e), end_s), -1);
  }
}

}  // namespace rlsim
