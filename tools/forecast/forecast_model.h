// `rlsim forecast`'s arithmetic: a long run's mean response length at each step (the scenario's
// workload.length_schedule, linear between its points, held beyond its ends), which steps to
// simulate (evenly spaced, plus the schedule's points), and the whole run from the sampled steps —
// each step between two sampled ones taken on the straight line between them — with evaluations and
// checkpoint saves added. Pure arithmetic: simulating the samples is the command's.
#pragma once

#include <optional>
#include <vector>

#include "sim/scenario/scenario.h"

namespace rlsim {

/// The mean response length at `step`: `base_mean` without a schedule.
double scheduled_output_mean(const std::vector<LengthSchedulePoint>& schedule, double base_mean, int step);

/// The steps to simulate of a `steps`-step run: `samples` evenly spaced from the first to the last
/// (all of them when `samples` ≥ steps), and each schedule point inside the run; sorted, unique.
std::vector<int> forecast_sample_steps(int steps, int samples,
                                       const std::vector<LengthSchedulePoint>& schedule);

/// One simulated sample of one policy.
struct ForecastSample {
  int step = 0;
  double output_tokens_mean = 0.0;
  double step_s = 0.0;  ///< steady step time
  double usd_per_step = 0.0;
  double rollout_s = 0.0;  ///< the steady steps' mean rollout phase
  double train_s = 0.0;    ///< the steady steps' mean training and weight-sync phases
};

/// What a run does besides its steps: an evaluation every `eval_every` steps and a checkpoint save
/// every `checkpoint_every` (0: never), each taking its time with the cluster's GPUs paid for.
struct RunExtras {
  int eval_every = 0;
  double eval_s = 0.0;
  int checkpoint_every = 0;
  double checkpoint_s = 0.0;
  double cluster_usd_per_hour = 0.0;
};

struct ForecastTotals {
  double step_seconds = 0.0;   ///< the steps alone
  double extra_seconds = 0.0;  ///< evaluations and checkpoints
  double usd = 0.0;
  int evaluations = 0, checkpoints = 0;
  double seconds() const { return step_seconds + extra_seconds; }
};

/// `value` of the samples (by step) at `step`, on the straight line between the two around it.
double interpolated(const std::vector<ForecastSample>& samples, double ForecastSample::*value, int step);

/// The run of `steps` steps from `samples` (one policy, by step, the first at step 0 and the last at
/// steps − 1) and `extras`.
ForecastTotals forecast_totals(const std::vector<ForecastSample>& samples, int steps,
                               const RunExtras& extras);

/// The first step at which `a − b` (each interpolated) changes sign from its sign at step 0, by
/// linear interpolation between samples; none when it never does.
std::optional<double> first_crossing(const std::vector<ForecastSample>& a, double ForecastSample::*a_value,
                                     const std::vector<ForecastSample>& b, double ForecastSample::*b_value,
                                     int steps);

}  // namespace rlsim
