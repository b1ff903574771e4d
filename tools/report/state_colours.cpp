// The fixed colours of GPU states.
#include "tools/report/state_colours.h"

#include <cassert>
#include <map>

#include "sim/platform/gpu_state.h"

namespace rlsim {

std::string state_colour(const std::string& name) {
  static const std::map<GpuState, std::string> fixed_colours{
      {GpuState::busy(Phase::rollout), "#2e7d32"},
      {GpuState::busy(Phase::train), "#1565c0"},
      {GpuState::busy(Phase::ref_logprob), "#64b5f6"},
      {GpuState::busy(Phase::weight_sync), "#7e57c2"},
      {GpuState::switching(), "#ffb300"},
      {GpuState::wait(WaitCause::train_waits_rollout), "#c62828"},
      {GpuState::wait(WaitCause::rollout_waits_weights), "#ef6c00"},
      {GpuState::wait(WaitCause::rollout_waits_agents), "#f06292"},
      {GpuState::wait(WaitCause::long_tail), "#e57373"},
      {GpuState::wait(WaitCause::no_work_launched), "#8d6e63"},
      {GpuState::wait(WaitCause::pipeline_bubble), "#ba68c8"},
      {GpuState::down(), "#212121"}};
  if (name == kUnrecordedState) return "#e0e0e0";
  const std::optional<GpuState> state = parse_gpu_state(name);
  assert(state && "metrics.json names only states of the name table");
  auto it = fixed_colours.find(*state);
  if (it != fixed_colours.end()) return it->second;
  return state->is(StateKind::wait) ? "#ad1457" : "#9e9e9e";
}

}  // namespace rlsim
