// The instance's control-plane state machine: preempt, pause, resume and stop; weight updates and
// faults kept as data until the instance acts on them.
#include <catch2/catch.hpp>

#include "sim/engine/instance_control.h"

using namespace rlsim;

TEST_CASE("instance control: preempt, pause and resume with the resume's weights") {
  InstanceControl control;
  CHECK(control.state() == InstanceState::serving);
  control.on_message(InstanceMessage::preempt(Preemption::recompute, nullptr), 1.0);
  CHECK(control.state() == InstanceState::preempting);
  const PreemptOrder order = control.pause();
  CHECK(order.mode == Preemption::recompute);
  CHECK(control.state() == InstanceState::paused);
  CHECK(control.receiving());
  control.on_message(InstanceMessage::resume(3, 0.5), 2.0);
  CHECK(control.state() == InstanceState::serving);
  const auto load = control.leave_pause();
  REQUIRE(load);
  CHECK(load->version == 3);
  CHECK(load->pause_s == 0.5);
}

TEST_CASE("instance control: a stop while paused ends the pause without loading weights") {
  InstanceControl control;
  control.on_message(InstanceMessage::preempt(Preemption::save_kv, nullptr), 1.0);
  control.pause();
  control.on_message(InstanceMessage::stop(), 2.0);
  CHECK(control.state() == InstanceState::stopping);
  CHECK_FALSE(control.receiving());
  CHECK_FALSE(control.leave_pause());
}

TEST_CASE("instance control: a weight update is taken once, the latest one wins") {
  InstanceControl control;
  CHECK_FALSE(control.take_weight_update());
  control.on_message(InstanceMessage::weights(1, 2.0), 0.0);
  control.on_message(InstanceMessage::weights(2, 3.0), 0.0);
  const auto load = control.take_weight_update();
  REQUIRE(load);
  CHECK(load->version == 2);
  CHECK(load->pause_s == 3.0);
  CHECK_FALSE(control.take_weight_update());
}

TEST_CASE("instance control: faults are kept until the last repair, in any state") {
  InstanceControl control;
  control.on_message(InstanceMessage::preempt(Preemption::migrate, nullptr), 0.0);
  control.on_message(InstanceMessage::fail(10.0), 5.0);  // down until 15
  control.on_message(InstanceMessage::fail(4.0), 6.0);   // until 10: the first repair is later
  CHECK(control.state() == InstanceState::preempting);   // a fault is not a state
  const auto repaired = control.take_fault();
  REQUIRE(repaired);
  CHECK(*repaired == 15.0);
  CHECK_FALSE(control.take_fault());
}
