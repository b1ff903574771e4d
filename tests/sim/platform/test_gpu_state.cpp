// GpuState name table tests: every timeline state round-trips through its name, names are unique,
// the state of a name is rebuilt from its parts, and the names are exactly the ones trace.json and
// metrics.json have always carried (a renamed state would silently change every output file).
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "sim/platform/gpu_state.h"
#include "tests/sim/named_enum_checks.h"

using namespace rlsim;

TEST_CASE("the kind, phase, cause and transfer tables round-trip with unique names") {
  test::check_name_table<StateKind>();
  test::check_name_table<Phase>();
  test::check_name_table<WaitCause>();
  test::check_name_table<Transfer>();
}

TEST_CASE("every timeline state round-trips through its name, and names are unique") {
  std::set<std::string> names;
  for (GpuState state : all_gpu_states()) {
    const std::string name = to_string(state);
    INFO(name);
    CHECK(parse_gpu_state(name) == state);
    CHECK(names.insert(name).second);
    // The chart and trace split a name into category (kind) and detail.
    const std::string kind(enum_name(state.kind()));
    CHECK(name.rfind(kind, 0) == 0);
    CHECK((name == kind ? std::string(detail_name(state)) == kind
                        : name == kind + ":" + std::string(detail_name(state))));
  }
  CHECK(all_gpu_states().size() ==
        enum_values<Phase>().size() + enum_values<WaitCause>().size() + enum_values<Transfer>().size() + 2);
}

TEST_CASE("a state keeps the phase, cause or direction it was made with") {
  for (Phase phase : enum_values<Phase>()) {
    CHECK(GpuState::busy(phase).kind() == StateKind::busy);
    CHECK(GpuState::busy(phase).phase() == phase);
  }
  for (WaitCause cause : enum_values<WaitCause>()) {
    CHECK(GpuState::wait(cause).is(StateKind::wait));
    CHECK(GpuState::wait(cause).cause() == cause);
  }
  for (Transfer transfer : enum_values<Transfer>())
    CHECK(GpuState::transfer(transfer).transfer() == transfer);
  CHECK(GpuState::switching().is(StateKind::switching));
  CHECK(GpuState::down().is(StateKind::down));
  CHECK(GpuState::busy(Phase::rollout) != GpuState::busy(Phase::train));
  // Same detail value, other kind: different states.
  CHECK(GpuState::busy(static_cast<Phase>(0)) != GpuState::wait(static_cast<WaitCause>(0)));
}

TEST_CASE("names that are not states do not parse") {
  for (const char* name :
       {"", "busy", "busy:", "wait:nothing", "switching:rollout", "rollout", "busy:rollout "}) {
    INFO(name);
    CHECK_FALSE(parse_gpu_state(name).has_value());
  }
}

TEST_CASE("state names are the ones output files have always used") {
  std::string all;
  for (GpuState state : all_gpu_states()) all += to_string(state) + " ";
  // The one place that spells them out: a rename here is a change of trace.json and metrics.json.
  CHECK(
      all ==
      R"(busy:rollout busy:train busy:ref_logprob busy:weight_sync busy:record busy:attention busy:ffn )"
      R"(wait:train_waits_rollout wait:rollout_waits_weights wait:rollout_waits_agents wait:long_tail wait:no_work_launched )"
      R"(wait:pipeline_bubble wait:fault wait:idle switching down transfer:dispatch transfer:combine )"
      R"(transfer:all_gather transfer:reduce_scatter )");
}

TEST_CASE("metrics.json always reports the four causes of design §4, and only those") {
  std::vector<WaitCause> always;
  for (WaitCause cause : enum_values<WaitCause>()) {
    if (always_reported(cause)) always.push_back(cause);
  }
  CHECK(always == std::vector<WaitCause>{WaitCause::train_waits_rollout, WaitCause::rollout_waits_weights,
                                         WaitCause::rollout_waits_agents, WaitCause::long_tail});
}
