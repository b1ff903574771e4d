// Names of timeline states, composed from the kind and detail tables of gpu_state.h.
#include "sim/platform/gpu_state.h"

namespace rlsim {

std::string_view detail_name(GpuState state) {
  switch (state.kind()) {
    case StateKind::busy: return enum_name(state.phase());
    case StateKind::wait: return enum_name(state.cause());
    case StateKind::transfer: return enum_name(state.transfer());
    case StateKind::switching:
    case StateKind::down: break;
  }
  return enum_name(state.kind());
}

std::string to_string(GpuState state) {
  std::string name(enum_name(state.kind()));
  if (state.is(StateKind::switching) || state.is(StateKind::down)) return name;
  return name + ":" + std::string(detail_name(state));
}

std::optional<GpuState> parse_gpu_state(std::string_view name) {
  for (GpuState state : all_gpu_states()) {
    if (to_string(state) == name) return state;
  }
  return std::nullopt;
}

const std::vector<GpuState>& all_gpu_states() {
  static const std::vector<GpuState> states = [] {
    std::vector<GpuState> all;
    for (StateKind kind : enum_values<StateKind>()) {
      switch (kind) {
        case StateKind::busy:
          for (Phase phase : enum_values<Phase>()) all.push_back(GpuState::busy(phase));
          break;
        case StateKind::wait:
          for (WaitCause cause : enum_values<WaitCause>()) all.push_back(GpuState::wait(cause));
          break;
        case StateKind::transfer:
          for (Transfer transfer : enum_values<Transfer>()) all.push_back(GpuState::transfer(transfer));
          break;
        case StateKind::switching: all.push_back(GpuState::switching()); break;
        case StateKind::down: all.push_back(GpuState::down()); break;
      }
    }
    return all;
  }();
  return states;
}

}  // namespace rlsim
