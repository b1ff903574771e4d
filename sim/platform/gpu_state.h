// GpuState: what a timeline track does over an interval — busy in a phase, waiting for a cause,
// switching between phases, down after a failure, or (AFD) moving activations. Every state and its
// name come from the lists below, the one name table behind trace.json, metrics.json
// (`gpu_seconds_by_state`, `bubble.by_cause`), the reports and the tests: a state is written
// `kind:detail` (`busy:rollout`, `wait:long_tail`) or, without detail, `kind` (`switching`).
// Adding a busy phase or a bubble cause is one line here.
#pragma once

#include <cassert>
#include <compare>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/named_enum.h"

namespace rlsim {

#define RLSIM_STATE_KINDS(X) X(busy) X(wait) X(switching) X(down) X(transfer)

/// Busy phases: the work a GPU (or the data plane's recorder) is doing.
#define RLSIM_PHASES(X) X(rollout) X(train) X(ref_logprob) X(weight_sync) X(record) X(attention) X(ffn)

/// Bubble causes, each with whether metrics.json always reports it (as 0 when it never occurred):
/// the four causes of docs/design.md §4 are always there; the others appear when they occur.
/// `no_work_launched`: the policy holds back work its staleness bound allows (it launches whole
/// steps only once the previous one drained), so the GPU idles by the policy's choice.
/// `pipeline_bubble`: stages of a pipeline-parallel instance idle because it runs fewer sequences
/// than it has stages (models/timing/pipeline_parallel.h).
/// `idle` is what an inference instance records; RolloutMonitor::classify replaces it by a cause.
#define RLSIM_WAIT_CAUSES(X)     \
  X(train_waits_rollout, true)   \
  X(rollout_waits_weights, true) \
  X(rollout_waits_agents, true)  \
  X(long_tail, true)             \
  X(no_work_launched, false)     \
  X(pipeline_bubble, false)      \
  X(fault, false)                \
  X(idle, false)

/// AFD: the activations of a layer going to the FFN side (dispatch) and coming back (combine).
#define RLSIM_TRANSFERS(X) X(dispatch) X(combine) X(all_gather) X(reduce_scatter)

RLSIM_NAMED_ENUM(StateKind, RLSIM_STATE_KINDS)
RLSIM_NAMED_ENUM(Phase, RLSIM_PHASES)
RLSIM_NAMED_ENUM(WaitCause, RLSIM_WAIT_CAUSES)
RLSIM_NAMED_ENUM(Transfer, RLSIM_TRANSFERS)

/// Whether metrics.json lists `cause` even when no GPU waited for it.
constexpr bool always_reported(WaitCause cause) {
#define RLSIM_CAUSE_REPORTED_(value, reported) \
  case WaitCause::value: return reported;
  switch (cause) { RLSIM_WAIT_CAUSES(RLSIM_CAUSE_REPORTED_) }
#undef RLSIM_CAUSE_REPORTED_
  return false;
}

class GpuState {
 public:
  static constexpr GpuState busy(Phase phase) { return {StateKind::busy, static_cast<unsigned char>(phase)}; }
  static constexpr GpuState wait(WaitCause cause) {
    return {StateKind::wait, static_cast<unsigned char>(cause)};
  }
  static constexpr GpuState transfer(Transfer transfer) {
    return {StateKind::transfer, static_cast<unsigned char>(transfer)};
  }
  static constexpr GpuState switching() { return {StateKind::switching, 0}; }
  static constexpr GpuState down() { return {StateKind::down, 0}; }

  constexpr StateKind kind() const { return kind_; }
  constexpr bool is(StateKind kind) const { return kind_ == kind; }
  constexpr Phase phase() const {
    assert(kind_ == StateKind::busy && "only a busy state has a phase");
    return static_cast<Phase>(detail_);
  }
  constexpr WaitCause cause() const {
    assert(kind_ == StateKind::wait && "only a wait state has a cause");
    return static_cast<WaitCause>(detail_);
  }
  constexpr Transfer transfer() const {
    assert(kind_ == StateKind::transfer && "only a transfer state has a direction");
    return static_cast<Transfer>(detail_);
  }

  constexpr bool operator==(const GpuState&) const = default;
  constexpr auto operator<=>(const GpuState&) const = default;

 private:
  constexpr GpuState(StateKind kind, unsigned char detail) : kind_(kind), detail_(detail) {}

  StateKind kind_;
  unsigned char detail_;  ///< the Phase, WaitCause or Transfer, by kind; 0 for the others
};

/// `kind:detail`, or `kind` for a state without detail: the name in every output file.
std::string to_string(GpuState state);
/// The part after the colon (`rollout` for `busy:rollout`), or the kind's name without detail.
std::string_view detail_name(GpuState state);
/// The state named `name`, or nothing.
std::optional<GpuState> parse_gpu_state(std::string_view name);
/// Every state, kind by kind in the lists' order.
const std::vector<GpuState>& all_gpu_states();

}  // namespace rlsim
