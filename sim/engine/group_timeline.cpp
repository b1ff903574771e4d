// Recording a GPU group's work on its members' tracks.
#include "sim/engine/group_timeline.h"

#include <iterator>
#include <simgrid/s4u.hpp>

#include "sim/engine/timed_work.h"

namespace rlsim {

void GroupTimeline::set_step(int step) {
  if (step == step_) return;
  const double now = simgrid::s4u::Engine::get_clock();
  if (!step_changes_.empty() && step_changes_.back().first == now)
    step_changes_.back().second = step;
  else
    step_changes_.emplace_back(now, step);
  step_ = step;
}

double GroupTimeline::now_s() { return simgrid::s4u::Engine::get_clock(); }

void GroupTimeline::record_pipelined(GpuState state, double start_s, double busy_share) const {
  if (busy_share >= 1.0) {
    record(state, start_s);
    return;
  }
  const double end_s = now_s();
  const double busy_end_s = start_s + busy_share * (end_s - start_s);
  record_span(state, start_s, busy_end_s);
  record_span(GpuState::wait(WaitCause::pipeline_bubble), busy_end_s, end_s);
}

void GroupTimeline::record_span(GpuState state, double start_s, double end_s) const {
  // Cut the span at each step change inside (start_s, end_s); the first such change is found by
  // walking back from the latest, as spans end at (or just before) now and most begin after the
  // last change.
  auto change = step_changes_.end();
  while (change != step_changes_.begin() && std::prev(change)->first > start_s) --change;
  double from = start_s;
  int step = change == step_changes_.begin() ? 0 : std::prev(change)->second;
  for (; change != step_changes_.end() && change->first < end_s; ++change) {
    for (int track : tracks_) timeline_.record(track, state, from, change->first, step);
    from = change->first;
    step = change->second;
  }
  for (int track : tracks_) timeline_.record(track, state, from, end_s, step);
}

void GroupTimeline::run_busy(double seconds, GpuState state, double busy_share) const {
  if (seconds <= 0.0) return;
  const double start_s = now_s();
  timed_work::run(seconds);  // a group's GPUs run one instance's work at a time
  record_pipelined(state, start_s, busy_share);
}

}  // namespace rlsim
