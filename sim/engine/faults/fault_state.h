// FaultState: the scenario's failures as the engine sees them — which GPUs each event fails, and
// which running jobs it stops (its blast radius). A job is the trainer or one inference instance;
// an event stops a job when it fails one of the job's GPUs, or — when the policy runs everything
// as one job (colocated: one SPMD program over every GPU) — when it fails any GPU at all. Jobs
// consult it: the trainer waits on its activities only until the next event that stops it, then
// cancels them, waits for the repair and redoes the lost work; the rollout service tells the
// instances an event stops to give up their calls (requeued elsewhere, generated tokens lost) and
// sit out the repair. Faults are modelled by cancelling the stopped jobs' activities rather than
// with Host::turn_off, which would kill the instance actors on those GPUs together with the
// messages they are carrying (their agents would wait for ever).
#pragma once

#include <optional>
#include <simgrid/s4u.hpp>
#include <string>
#include <vector>

#include "sim/platform/timeline.h"
#include "sim/scenario/fault_spec.h"

namespace rlsim {

struct GpuGroup;

/// Which state keeps a GPU's time where records overlap under faults: down, then work, then
/// switching, then waiting out a repair, then other waits (Timeline::resolve_overlaps).
int fault_state_rank(GpuState state);

class FaultState {
 public:
  /// `pools`: every GPU of each cluster pool, in scenario order (RlContext::pools).
  FaultState(const FaultsSpec& spec, const std::vector<GpuGroup>& pools);

  const FaultsSpec& spec() const { return spec_; }
  bool empty() const { return spec_.events.empty(); }
  /// Every job spans every GPU: any event stops all of them.
  void set_single_job(bool single) { single_job_ = single; }

  /// Whether event `e` stops a job running on `hosts`.
  bool stops(size_t e, const std::vector<simgrid::s4u::Host*>& hosts) const;
  /// The first event starting at or after `from` that stops a job on `hosts`.
  std::optional<size_t> next_stop(double from, const std::vector<simgrid::s4u::Host*>& hosts) const;
  /// When a job on `hosts` can run again if it is stopped at `now`; `now` when it is not stopped.
  double running_again(double now, const std::vector<simgrid::s4u::Host*>& hosts) const;
  double repaired_s(size_t e) const { return spec_.events[e].at_s + spec_.events[e].repair_after_s; }

  /// Records GpuState::down() on the failed GPUs of every event, clipped to [0, end_s).
  void record_down(Timeline& timeline, double end_s) const;

 private:
  FaultsSpec spec_;
  std::vector<std::vector<simgrid::s4u::Host*>> victims_;  ///< per event
  std::vector<std::vector<int>> victim_tracks_;            ///< per event
  bool single_job_ = false;
};

}  // namespace rlsim
