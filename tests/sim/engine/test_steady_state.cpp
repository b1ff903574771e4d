// The steady window of an RL run (warm-up and drain steps left out) and the 95 % interval of a mean.
#include <catch2/catch.hpp>
#include <cmath>

#include "sim/engine/steady_state.h"

using namespace rlsim;

namespace {

std::vector<StepRecord> steps(const std::vector<double>& durations) {
  std::vector<StepRecord> out;
  double t = 0.0;
  for (size_t i = 0; i < durations.size(); ++i) {
    StepRecord s;
    s.step = static_cast<int>(i);
    s.start_s = t;
    t += durations[i];
    s.end_s = t;
    out.push_back(s);
  }
  return out;
}

}  // namespace

TEST_CASE("the steady window leaves out the first step from 2 steps on and the last from 3 on") {
  const SteadyWindow one = steady_window(steps({5.0}));
  CHECK(one.warmup_steps == 0);
  CHECK(one.drain_steps == 0);
  CHECK(one.steps == 1);
  CHECK(one.seconds() == 5.0);

  const SteadyWindow two = steady_window(steps({5.0, 3.0}));
  CHECK(two.warmup_steps == 1);
  CHECK(two.drain_steps == 0);
  CHECK(two.steps == 1);
  CHECK(two.start_s == 5.0);
  CHECK(two.end_s == 8.0);

  const SteadyWindow six = steady_window(steps({9.0, 4.0, 5.0, 4.0, 5.0, 12.0}));
  CHECK(six.warmup_steps == 1);
  CHECK(six.drain_steps == 1);
  CHECK(six.steps == 4);
  CHECK(six.start_s == 9.0);
  CHECK(six.end_s == 27.0);
  CHECK(!six.contains_step(0));
  CHECK(six.contains_step(1));
  CHECK(six.contains_step(4));
  CHECK(!six.contains_step(5));
  CHECK(six.overlaps(26.0, 30.0));
  CHECK(!six.overlaps(27.0, 30.0));
  CHECK(!six.overlaps(0.0, 9.0));

  CHECK(steady_window({}).steps == 0);
}

TEST_CASE("a mean's 95 % interval is Student's t times the standard error") {
  const MeanInterval none = mean_interval_95({});
  CHECK(!none.known);
  const MeanInterval single = mean_interval_95({7.0});
  CHECK(single.mean == 7.0);
  CHECK(!single.known);
  CHECK(single.half_width == 0.0);

  // 4, 5, 4, 5: mean 4.5, sample sd 0.57735, t(3) = 3.182.
  const MeanInterval four = mean_interval_95({4.0, 5.0, 4.0, 5.0});
  CHECK(four.known);
  CHECK(four.mean == Approx(4.5));
  CHECK(four.half_width == Approx(3.182 * std::sqrt(1.0 / 3.0) / 2.0));
  CHECK(four.low() == Approx(4.5 - four.half_width));
  // Identical steps: no spread.
  CHECK(mean_interval_95({3.0, 3.0, 3.0}).half_width == 0.0);
}

TEST_CASE("Student's t quantiles fall towards the normal's 1.96") {
  CHECK(student_t_975(1) == Approx(12.706));
  CHECK(student_t_975(10) == Approx(2.228));
  CHECK(student_t_975(30) == Approx(2.042));
  CHECK(student_t_975(60) == Approx(2.000));
  CHECK(student_t_975(1000) == Approx(1.960));
  for (int dof = 1; dof < 200; ++dof) CHECK(student_t_975(dof + 1) <= student_t_975(dof));
}
